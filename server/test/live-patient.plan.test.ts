/**
 * What a deleted patient's children are hidden by (server/resources/live-patient.ts): every list of such a
 * resource looks the patient up among the clinic's deleted ones through `patients_deleted_idx` (a probe
 * of a small index per row read) instead of proving each row's patient live through the patients' key.
 * (SQLite names the index: it would rather probe the rowid, 5x slower). Generated from the resources that
 * declare the rule, so a new one is covered the day it is added.
 */
import { getTableName } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { isPg } from '../../db/dialect';
import { listRecords } from '../list/engine';
import { RESOURCES } from '../resources';
import type { Resource } from '../resources/define';
import { LIVE_PATIENT_RULE } from '../resources/live-patient';
import { useClinic } from './helpers';
import { planOf } from './support/plans';
import { recordingDb } from './support/recording-db';

const t = useClinic({ seed: true });

const hidden = (Object.values(RESOURCES) as Resource[]).filter(
  (r) => r.list && r.description.includes(LIVE_PATIENT_RULE),
);

test('the resources hidden with their patient are found', () => {
  expect(hidden.map((r) => r.name)).toEqual(
    expect.arrayContaining(['numbers', 'addresses', 'clinical_notes', 'files', 'patient_logs', 'patient_log_tags']),
  );
});

test.each(hidden.map((r) => [r.name, r] as const))(
  '%s: the page and its count probe the deleted patients index',
  async (_name, r) => {
    const { db, statements } = recordingDb(t.server);
    await listRecords(r, { db, accountId: t.clinic.account.id, url: `http://${t.clinic.host}/v3/api/${r.name}` }, {});
    const own = statements.filter((s) => s.sql.includes(`from "${getTableName(r.table)}"`));
    expect(own.length).toBe(2);
    for (const statement of own) {
      const plan = await planOf(t.server, statement, 'patients');
      expect(plan, `${statement.sql}\n${plan}`).toMatch(
        isPg ? /"Index Name":"patients_deleted_idx"/ : /INDEX patients_deleted_idx/,
      );
      expect(plan, statement.sql).not.toMatch(
        isPg ? /"Index Name":"patients_pkey"/ : /patients USING INTEGER PRIMARY KEY/,
      );
    }
  },
);
