/** What a patient read embeds: numbers, address, tags (db/json.ts reads them). */
import type { z } from 'zod';
import type { addressRead } from './addresses';
import type { numberRead } from './numbers';
import type { tagRead } from './patients';
import { fromDbJson } from '../../db/dialect';
import type { Embed } from '../../db/json';

export const patientEmbedded = {
  numbers: {
    fields: {
      id: 'n.id',
      number: 'n.number',
      country_code: 'n.country_code',
      iso2: 'n.iso2',
      type: 'n.type',
      intl_number: 'n.intl_number',
    },
    from: 'numbers n',
    account: 'n.account_id',
    key: 'n.patient_id',
    orderBy: 'n.id',
  },
  address: {
    fields: {
      line_1: 'a.line_1',
      line_2: 'a.line_2',
      city: 'a.city',
      state: 'a.state',
      postal_code: 'a.postal_code',
      country: 'a.country',
    },
    from: 'addresses a',
    account: 'a.account_id',
    key: 'a.entity_id',
    where: "a.entity_type = 'Patient'",
  },
  tags: {
    fields: {
      id: 't.id',
      name: 't.name',
      color: 't.color',
      patient_tag_id: 'pt.id',
      editable: 'pt.editable',
      added_at: 'pt.created_at',
    },
    from: 'patient_tags pt JOIN tags t ON t.account_id = pt.account_id AND t.id = pt.tag_id',
    account: 'pt.account_id',
    key: 'pt.patient_id',
    orderBy: 'pt.id',
    kinds: { editable: 'bool', added_at: 'timestamp' },
  },
} satisfies Record<string, Embed>;

/** The embedded attributes of a selected row (JSON text on SQLite, parsed JSON on PostgreSQL). */
export const patientEmbeds = (row: Record<keyof typeof patientEmbedded, unknown>) => ({
  numbers: fromDbJson<z.infer<typeof numberRead>[] | null>(row.numbers) ?? [],
  address: fromDbJson<z.infer<typeof addressRead> | null>(row.address) ?? null,
  tags: fromDbJson<z.infer<typeof tagRead>[] | null>(row.tags) ?? [],
});
