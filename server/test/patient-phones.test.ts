/**
 * Phone search (issue 23 §5): a number is stored with its search key, E.164 read in the account's
 * country (the raw digits when it does not parse), and every search (MCP find_patient, the REST
 * `phone` filter of /numbers) compares that key with the query read the same way, through the
 * (account_id, search_key) index. The number as sent stays in `number` for display.
 */
import fs from 'node:fs';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { execIn } from '../../db/client';
import { isPg } from '../../db/dialect';
import { numbers } from '../../db/schema';
import type { MemberPrincipal } from '../context';
import { activeMember } from '../auth/members';
import { ApiError } from '../errors';
import type { Connector } from '../mcp/connector';
import { TOOLS } from '../mcp/tools';
import { client, newClinic, useClinic, type Clinic } from './helpers';
import { addMember } from './support/portal';

const t = useClinic({ seed: true });
const { api } = t;
type Rec = Record<string, unknown>;

/** The three spellings of one UK mobile number. */
const SPELLINGS = ['07700 900101', '07700900101', '+447700900101'];
const E164 = '+447700900101';

let owner: MemberPrincipal;
let patientId: number;

async function findPatient(clinic: Clinic, member: MemberPrincipal, args: Rec): Promise<Rec[]> {
  const c: Connector = {
    db: t.server.app.db,
    account: clinic.account,
    member,
    baseUrl: `http://${clinic.host}/v3/api`,
    grantId: 0,
    clientId: 'test',
  };
  const tool = TOOLS.find((x) => x.name === 'find_patient')!;
  const out = (await tool.run(c, tool.input.parse(args))) as { data: Rec[] };
  return JSON.parse(JSON.stringify(out.data)) as Rec[];
}

async function ownerOf(clinic: Clinic) {
  const added = await addMember(t.server, clinic, 'owner');
  return (await activeMember(t.server.app.db.db, clinic.account.id, added.id))!;
}

const intlNumbers = (p: Rec) => (p.numbers as Rec[]).map((n) => n.intl_number);

beforeAll(async () => {
  owner = await ownerOf(t.clinic);
  const res = await api.post('/patients', {
    body: { first_name: 'Phoebe', last_name: 'Dialler', numbers: [{ number: '07700 900101', type: 'mobile' }] },
  });
  expect(res.status).toBe(201);
  patientId = res.body.data.id;
});

describe('phone numbers are stored with their normalised search key', () => {
  it('the number as sent is kept for display; the search key is its E.164 form', async () => {
    const p = (await api.get(`/patients/${patientId}`)).body.data;
    expect(p.numbers).toMatchObject([{ number: '07700 900101', intl_number: E164, iso2: 'GB', country_code: '44' }]);
    const [row] = await t.server.app.db.db
      .select()
      .from(numbers)
      .where(and(eq(numbers.account_id, t.clinic.account.id), eq(numbers.patient_id, patientId)));
    expect(row.search_key).toBe(E164);
  });

  it('a PATCH that changes the number moves its search key', async () => {
    const created = (
      await api.post('/patients', {
        body: { first_name: 'Moving', last_name: 'Number', numbers: [{ number: '07700 900555', type: 'home' }] },
      })
    ).body.data;
    const res = await api.patch(`/patients/${created.id}`, {
      body: { numbers: [{ id: created.numbers[0].id, number: '020 7946 0555', type: 'home' }] },
    });
    expect(res.status).toBe(200);
    const [row] = await t.server.app.db.db
      .select()
      .from(numbers)
      .where(and(eq(numbers.account_id, t.clinic.account.id), eq(numbers.id, created.numbers[0].id)));
    expect(row).toMatchObject({ number: '020 7946 0555', search_key: '+442079460555' });
    expect((await findPatient(t.clinic, owner, { phone: '02079460555' })).map((p) => p.id)).toEqual([created.id]);
    expect(await findPatient(t.clinic, owner, { phone: '07700 900555' })).toEqual([]);
  });
});

describe('MCP find_patient by phone', () => {
  it.each(SPELLINGS)('finds the patient whose number is 07700 900101 when asked for %j', async (phone) => {
    const found = await findPatient(t.clinic, owner, { phone });
    expect(found.map((p) => p.id)).toContain(patientId);
    // Only patients with that number: the seeded one with the same mobile, and ours.
    for (const p of found) expect(intlNumbers(p)).toContain(E164);
  });

  it('other spellings of the same number find it too (spaces, brackets, 0044, a national prefix after +44)', async () => {
    for (const phone of ['0044 7700 900101', '+44 (0)7700 900101', '07700-900-101']) {
      expect(
        (await findPatient(t.clinic, owner, { phone })).map((p) => p.id),
        phone,
      ).toContain(patientId);
    }
  });

  it('narrows by name as well as phone; another number finds nothing', async () => {
    expect((await findPatient(t.clinic, owner, { phone: '07700900101', name: 'Dialler' })).map((p) => p.id)).toEqual([
      patientId,
    ]);
    expect(await findPatient(t.clinic, owner, { phone: '07700 900998', name: 'Dialler' })).toEqual([]);
  });

  it('a deleted patient is not found by phone', async () => {
    const gone = (
      await api.post('/patients', {
        body: { first_name: 'Gone', last_name: 'Away', numbers: [{ number: '07700 900777', type: 'mobile' }] },
      })
    ).body.data;
    expect((await findPatient(t.clinic, owner, { phone: '07700900777' })).map((p) => p.id)).toEqual([gone.id]);
    expect((await api.delete(`/patients/${gone.id}`)).status).toBe(204);
    expect(await findPatient(t.clinic, owner, { phone: '07700900777' })).toEqual([]);
  });

  it('reads a national number in the account’s country: a vulcan (US) clinic finds (415) 555-0199', async () => {
    const us = await newClinic(t.server, { region: 'vulcan', timezone: 'America/Los_Angeles', currency: 'USD' });
    const usApi = client(t.server, us);
    const res = await usApi.post('/patients', {
      body: { first_name: 'Sam', last_name: 'Francisco', numbers: [{ number: '(415) 555-0199', type: 'mobile' }] },
    });
    expect(res.body.data.numbers[0]).toMatchObject({ number: '(415) 555-0199', intl_number: '+14155550199' });
    const usOwner = await ownerOf(us);
    for (const phone of ['(415) 555-0199', '4155550199', '+1 415 555 0199']) {
      expect(
        (await findPatient(us, usOwner, { phone })).map((p) => p.id),
        phone,
      ).toEqual([res.body.data.id]);
    }
    // The same digits in the neptune (GB) clinic are a different number.
    expect((await findPatient(t.clinic, owner, { phone: '(415) 555-0199' })).map((p) => p.id)).not.toContain(
      res.body.data.id,
    );
  });

  it('fewer than 4 digits is still 422 validation_failed', async () => {
    await expect(findPatient(t.clinic, owner, { phone: '+4' })).rejects.toSatisfy(
      (e: unknown) => e instanceof ApiError && e.code === 'validation_failed',
    );
  });
});

describe('REST /numbers?phone=', () => {
  it.each(SPELLINGS)('the phone filter reads %j as the stored numbers were read', async (phone) => {
    const res = await api.get(`/numbers?phone=${encodeURIComponent(phone)}&page_size=100`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((n: Rec) => n.patient_id)).toContain(patientId);
    for (const n of res.body.data) expect(n.intl_number).toBe(E164);
  });

  it('in: takes several spellings; another number matches nothing', async () => {
    const res = await api.get(`/numbers?phone=${encodeURIComponent('in:07700 900101,+44 20 7946 0999')}&page_size=100`);
    expect(res.body.data.map((n: Rec) => n.patient_id)).toContain(patientId);
    expect((await api.get(`/numbers?phone=${encodeURIComponent('07700 900998')}`)).body.data).toEqual([]);
  });
});

describe('the migration backfills the search key of stored numbers', () => {
  /** The UPDATE statements of the migration that added search_key, for the dialect under test. */
  function backfill(): string[] {
    const dir = path.join(__dirname, '../../db/migrations', isPg ? 'pg' : 'sqlite');
    const file = fs.readdirSync(dir).find((f) => f.endsWith('_phone_search_key.sql'))!;
    return fs
      .readFileSync(path.join(dir, file), 'utf8')
      .split('--> statement-breakpoint')
      .map((s) => s.replace(/^--.*$/gm, '').trim())
      .filter((s) => /^UPDATE/i.test(s));
  }

  it('E.164 from intl_number, else the raw digits (an unparseable number is still found by its digits)', async () => {
    const acc = t.clinic.account.id;
    const now = new Date().toISOString();
    const rows = [
      { number: '07700 900101', intl_number: E164 },
      { number: 'ext. 12-34 5', intl_number: null },
    ];
    const ids = await t.server.app.db.transaction(async (tx) => {
      const out: number[] = [];
      for (const r of rows) {
        const [row] = await tx
          .insert(numbers)
          .values({
            ...r,
            account_id: acc,
            patient_id: patientId,
            type: 'other',
            country_code: null,
            iso2: null,
            search_key: null,
            metadata: {},
            created_at: now,
            updated_at: now,
          })
          .returning({ id: numbers.id });
        out.push(row.id);
      }
      const statements = backfill();
      expect(statements.length).toBeGreaterThan(0);
      for (const s of statements) await execIn(tx, sql.raw(s));
      return out;
    });
    const keys = await t.server.app.db.db
      .select({ id: numbers.id, search_key: numbers.search_key })
      .from(numbers)
      .where(and(eq(numbers.account_id, acc), eq(numbers.patient_id, patientId)));
    expect(keys.filter((k) => ids.includes(k.id)).map((k) => k.search_key)).toEqual([E164, '12345']);
    // Digits that do not make a number are searched as digits.
    expect((await findPatient(t.clinic, owner, { phone: '12-345' })).map((p) => p.id)).toEqual([patientId]);
  });
});
