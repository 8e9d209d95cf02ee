/**
 * Ids that last (issue 28 §2): on PostgreSQL every table's `id` is a bigint identity and every column that
 * holds another row's id is bigint, read from the catalog after migrations, so a new table or reference
 * declared with a 32-bit integer fails here. Then a record whose id is past 2^31 goes through the real
 * read paths (drizzle's decoders, the list's array rows, RETURNING, raw selects, the events feed) and comes
 * back a JSON number. SQLite's integers are 64-bit already.
 */
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { allIn, parseInt8 } from '../../db/client';
import { isPg } from '../../db/dialect';
import { events, patients } from '../../db/schema';
import { expectError, useClinic } from './helpers';

const t = useClinic();

/** Columns named `…_id` that hold an outside identifier, not a row's id: text on purpose. */
const NOT_ROW_IDS: Record<string, string> = {
  'events.event_id': "the event's public id (a UUID in the API and webhook payloads)",
  'webhook_messages.event_id': "the delivered event's public id (events.event_id)",
  'oauth_clients.client_id': "the OAuth client_id: a URL (Client ID Metadata Document) or a registered string",
  'oauth_grants.client_id': 'the OAuth client_id of the grant (oauth_clients.client_id)',
  'audit_log.request_id': "the request's id from the request header or generated (text, echoed in X-Request-Id)",
  'request_log.request_id': "the request's id (text, echoed in X-Request-Id)",
};

interface CatalogColumn {
  table_name: string;
  column_name: string;
  data_type: string;
  is_identity: string;
  identity_maximum: string | null;
}

describe('the PostgreSQL catalog after migrations', () => {
  test.runIf(isPg)('every id is a bigint identity and every column holding a row id is bigint (only on PostgreSQL)', async () => {
    const columns = await t.server.app.db.all<CatalogColumn>(sql`
      select c.table_name, c.column_name, c.data_type, c.is_identity, c.identity_maximum
      from information_schema.columns c
      join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name and tb.table_type = 'BASE TABLE'
      where c.table_schema = current_schema() and (c.column_name = 'id' or c.column_name like '%\_id' or c.is_identity = 'YES')
      order by c.table_name, c.column_name`);
    const named = (c: CatalogColumn) => `${c.table_name}.${c.column_name}`;
    expect(columns.filter((c) => c.column_name === 'id').length).toBeGreaterThan(30);

    // Not bigint, and not a deliberate exception: a 32-bit id or reference.
    const narrow = columns.filter((c) => c.data_type !== 'bigint' && !(named(c) in NOT_ROW_IDS)).map((c) => `${named(c)} ${c.data_type}`);
    expect(narrow).toEqual([]);
    // Every table's id is generated, by a 64-bit identity (an integer identity stops at 2^31 − 1).
    const ids = columns.filter((c) => c.column_name === 'id');
    expect(ids.filter((c) => c.is_identity !== 'YES' || c.identity_maximum !== '9223372036854775807').map(named)).toEqual([]);
    // The exceptions exist as described (text): a stale entry would hide a renamed column.
    const byName = new Map(columns.map((c) => [named(c), c]));
    expect(Object.keys(NOT_ROW_IDS).filter((name) => byName.get(name)?.data_type !== 'text')).toEqual([]);
  });

  test.runIf(isPg)("identity sequences are bigint, so the next id past 2^31 − 1 is not an error (only on PostgreSQL)", async () => {
    const narrow = await t.server.app.db.all<{ seq: string; type: string }>(sql`
      select s.seqrelid::regclass::text as seq, s.seqtypid::regtype::text as type
      from pg_sequence s join pg_class c on c.oid = s.seqrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and s.seqtypid <> 'bigint'::regtype`);
    expect(narrow).toEqual([]);
  });
});

describe('a record whose id is past 2^31 (bigint ids read as JSON numbers)', () => {
  // Moved past 2^31 in place rather than by restarting the identity: the suite's files share the database.
  test.runIf(isPg)('GET, list, PATCH, the events feed and raw selects all read its id as a number (only on PostgreSQL)', async () => {
    const created = await t.api.post('/patients', { body: { first_name: 'Big', last_name: 'Id' } });
    expect(created.status).toBe(201);
    const small: number = created.body.data.id;
    const big = 2 ** 31 + small;
    const account = t.clinic.account.id;
    const moved = await t.server.app.db.transaction(async (tx) => {
      await tx
        .update(events)
        .set({ entity_id: big })
        .where(and(eq(events.account_id, account), eq(events.entity, 'patients'), eq(events.entity_id, small)));
      return allIn<{ id: unknown }>(tx, sql`update ${patients} set id = ${big} where account_id = ${account} and id = ${small} returning id`);
    });
    // RETURNING through raw SQL: an int8 as a number, not the driver's string.
    expect(moved).toEqual([{ id: big }]);

    const one = await t.api.get(`/patients/${big}`);
    expect([one.status, one.body.data?.id]).toEqual([200, big]);
    const listed = await t.api.get(`/patients?id=${big}`);
    expect([listed.status, listed.body.data?.map((p: { id: unknown }) => p.id)]).toEqual([200, [big]]);
    const patched = await t.api.patch(`/patients/${big}`, { body: { first_name: 'Bigger' } });
    expect([patched.status, patched.body.data?.id, patched.body.data?.first_name]).toEqual([200, big, 'Bigger']);
    const feed = await t.api.get(`/events?data.entity=patients&data.id=${big}`);
    expect(feed.status).toBe(200);
    expect(feed.body.data.map((e: { type: string; data: unknown }) => [e.type, e.data])).toEqual([
      ['patients.created', { entity: 'patients', id: big }],
      ['patients.updated', { entity: 'patients', id: big }],
    ]);
    // count(*) is an int8 too.
    expect(await t.server.app.db.all(sql`select count(*) as n, max(id) as top from ${patients} where account_id = ${account} and id = ${big}`)).toEqual([{ n: 1, top: big }]);
    expectError(await t.api.get(`/patients/${big + 1}`), 404, 'not_found');
  });

  test('an int8 past 2^53 − 1 is kept as its exact decimal text, never a rounded number', () => {
    expect(parseInt8('2147483648')).toBe(2 ** 31);
    expect(parseInt8('-9007199254740991')).toBe(-Number.MAX_SAFE_INTEGER);
    expect(parseInt8('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseInt8('9007199254740993')).toBe('9007199254740993');
  });
});
