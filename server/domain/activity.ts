/**
 * The account activity log: the audit entries of the people side of the account (keys, sign-ins, team,
 * roles, webhooks, AI connectors) and of the practice setup (the Practice section's records and
 * settings, by whoever wrote them: a member, the command line, a key for referral sources), newest
 * first, paged by id (keyset: `before` the last id seen), each told as a sentence with the names of who
 * and what ("Ann Admin rotated the API key “Sync job”"). Filters: kind, member (who did it) and a date
 * range in the clinic's zone. The CSV export reads the same filtered entries, bounded.
 *
 * Indexes: audit_log_account_idx (account_id, entity, entity_id) serves every filter here by its
 * account_id lead and entity (the IN list of the kind's entities, or of all of them); the member and
 * date filters then read that account's entries in id order. An account with a very large log would
 * want (account_id, actor_id, id) for the member filter; it is not added here. Names are read by
 * primary key (the tables' (account_id, id) indexes).
 */
import { describeAccess, permissionsOf } from '../auth/key-groups';
import { and, desc, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { apiKeys, auditLog, oauthClients, oauthGrants, roles, users, webhookEndpoints } from '../../db/schema';
import { findRows } from '../resources/queries';
import { addDays, clockFor } from '../values/wall-time';
import { SETUP_RESOURCES } from './practice/setup-resources';
import { CLINIC_PROFILE_ENTITY as CLINIC_PROFILE } from './clinic-profile';
import { PRACTICE_SETTINGS_ENTITY as PRACTICE_SETTINGS } from './practice_settings';
import { counted } from '../values/words';

export const ACTIVITY_KIND_NAMES = [
  'api_keys',
  'sign_ins',
  'team',
  'roles',
  'webhooks',
  'connectors',
  'practice',
] as const;
export type ActivityKind = (typeof ACTIVITY_KIND_NAMES)[number];
const SETUP = new Map<string, (typeof SETUP_RESOURCES)[number]>(SETUP_RESOURCES.map((r) => [r.name, r]));
/** Kinds the portal filters by → the audited entities behind each. */
export const ACTIVITY_KINDS: Record<ActivityKind, readonly string[]> = {
  api_keys: ['api_keys'],
  sign_ins: ['sessions'],
  team: ['users', 'accounts'],
  roles: ['roles'],
  webhooks: ['webhook_endpoints'],
  connectors: ['connectors'],
  practice: [...SETUP_RESOURCES.map((r) => r.name), PRACTICE_SETTINGS, CLINIC_PROFILE],
};
const ALL = Object.values(ACTIVITY_KINDS).flat();
/** The most entries one CSV export holds (a download, not a backup: narrow the filters for more). */
export const EXPORT_LIMIT = 10_000;

type AuditRow = typeof auditLog.$inferSelect;
/** The app and the member of a connector entry (its audit entity_id is the grant's id). */
export interface ConnectorNames {
  client: string | null;
  member: string | null;
}

export interface ActivityQuery {
  kind?: ActivityKind;
  /** Entries by this member. */
  memberId?: number;
  /** Calendar days (YYYY-MM-DD) in the clinic's zone, both included. */
  from?: string;
  to?: string;
  before?: number;
}

const text = (v: unknown) => (typeof v === 'string' ? v : null);
/** A recorded change ({ from, to }), or nothing when the entry holds none. */
const fromTo = (v: unknown): { from?: unknown; to?: unknown } => (v !== null && typeof v === 'object' ? v : {});

/**
 * Names recorded with the entry come first: grants are swept 30 days after they end, long before the
 * log. Entries that recorded none (made before names were) read them from the grant while it is kept.
 * An approval's actor is the member who connected the app.
 */
async function connectorNames(db: Db, accountId: number, rows: AuditRow[]): Promise<Map<number, ConnectorNames>> {
  const connectors = rows.filter((r) => r.entity === 'connectors');
  const ids = idsOf(connectors);
  const grants = ids.length
    ? await db
        .select({ id: oauthGrants.id, client: oauthClients.name, member: users.name })
        .from(oauthGrants)
        .leftJoin(
          oauthClients,
          and(eq(oauthClients.account_id, oauthGrants.account_id), eq(oauthClients.client_id, oauthGrants.client_id)),
        )
        .leftJoin(users, and(eq(users.account_id, oauthGrants.account_id), eq(users.id, oauthGrants.user_id)))
        .where(and(eq(oauthGrants.account_id, accountId), inArray(oauthGrants.id, ids)))
    : [];
  const byGrant = new Map(grants.map((g) => [g.id, g]));
  return new Map(
    connectors.map((r) => {
      const recorded: Record<string, unknown> = r.changes ?? {};
      const grant = r.entity_id === null ? undefined : byGrant.get(r.entity_id);
      const member = text(recorded.member) ?? grant?.member ?? (r.action === 'approved' ? r.actor_name : null);
      return [r.id, { client: text(recorded.client) ?? grant?.client ?? text(recorded.client_id), member }];
    }),
  );
}

const idsOf = (rows: AuditRow[]) => [...new Set(rows.flatMap((r) => (r.entity_id === null ? [] : [r.entity_id])))];

/** The current names of the keys, members, roles and endpoints the entries acted on, by entity and id (deleted ones have none: the entry's recorded name, if any, is used). */
async function entityNames(db: Db, accountId: number, rows: AuditRow[]): Promise<Map<string, string>> {
  const of = (entity: string) => idsOf(rows.filter((r) => r.entity === entity));
  const [keys, members, roleRows, endpoints] = await Promise.all([
    of('api_keys').length
      ? db
          .select({ id: apiKeys.id, name: apiKeys.name })
          .from(apiKeys)
          .where(and(eq(apiKeys.account_id, accountId), inArray(apiKeys.id, of('api_keys'))))
      : [],
    of('users').length
      ? db
          .select({ id: users.id, name: users.name })
          .from(users)
          .where(and(eq(users.account_id, accountId), inArray(users.id, of('users'))))
      : [],
    of('roles').length
      ? db
          .select({ id: roles.id, name: roles.name })
          .from(roles)
          .where(and(eq(roles.account_id, accountId), inArray(roles.id, of('roles'))))
      : [],
    of('webhook_endpoints').length
      ? db
          .select({ id: webhookEndpoints.id, name: webhookEndpoints.url })
          .from(webhookEndpoints)
          .where(and(eq(webhookEndpoints.account_id, accountId), inArray(webhookEndpoints.id, of('webhook_endpoints'))))
      : [],
  ]);
  const names = new Map<string, string>();
  for (const [entity, list] of [
    ['api_keys', keys],
    ['users', members],
    ['roles', roleRows],
    ['webhook_endpoints', endpoints],
  ] as const)
    for (const r of list) names.set(`${entity}:${r.id}`, r.name);
  return names;
}

/**
 * The name of a setup record in what an entry recorded: the values sent on create, the record on delete,
 * the changed fields ({ from, to }) on update, where the name is there only if it changed.
 */
function recordedSetupName(changes: Record<string, unknown> | null): string | null {
  const c: Record<string, unknown> = changes ?? {};
  const value = (k: string) => text(c[k]) ?? text(fromTo(c[k]).to);
  return nameOf(value);
}
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const HOURS_KINDS: Record<string, string> = { open: 'working hours', break: 'break' };

/**
 * A setup record's name: its `name`, a practitioner's first and last name, or a weekly hours row's day,
 * times and kind ("Monday 09:00–17:00, working hours"), as a person reads them, not "#11".
 */
function nameOf(value: (field: string) => string | null): string | null {
  const first = value('first_name');
  const last = value('last_name');
  const [day, from, to] = [value('day'), value('starts_at'), value('ends_at')];
  const weekly =
    day !== null && DAY_NAMES[Number(day)] && from && to
      ? `${DAY_NAMES[Number(day)]} ${from}–${to}${HOURS_KINDS[value('type') ?? ''] ? `, ${HOURS_KINDS[value('type')!]}` : ''}`
      : null;
  return value('name') ?? (first && last ? `${first} ${last}` : weekly);
}

/** The current names of the setup records whose entries recorded none (an update that left the name alone), by entity and id. */
async function setupNames(db: Db, accountId: number, rows: AuditRow[]): Promise<Map<string, string>> {
  const unnamed = rows.filter((r) => SETUP.has(r.entity) && r.entity_id !== null && !recordedSetupName(r.changes));
  const names = new Map<string, string>();
  await Promise.all(
    [...new Set(unnamed.map((r) => r.entity))].map(async (entity) => {
      const found = await findRows(
        db,
        SETUP.get(entity)!,
        accountId,
        idsOf(unnamed.filter((r) => r.entity === entity)),
      );
      for (const row of found) {
        const fields = new Map(Object.entries(row));
        const name = nameOf((k) => text(fields.get(k)));
        if (name) names.set(`${entity}:${row.id}`, name);
      }
    }),
  );
  return names;
}

const PROFILE_FIELDS: Record<string, string> = {
  name: 'name',
  timezone: 'time zone',
  currency: 'currency',
  locale: 'language',
};

/** A setting's value in a sentence: a switch reads on or off. */
const settingValue = (v: unknown) =>
  v === true ? 'on' : v === false ? 'off' : v === null || v === undefined ? 'none' : String(v);

/**
 * A practice setup entry as a sentence ("Ann Admin added the location “Harbour Street”"), or null for an
 * entity that is not setup. A key writes referral sources through the API: it is named as a key.
 */
function setupSentence(r: AuditRow, current: string | null): string | null {
  const c: Record<string, unknown> = r.changes ?? {};
  const who = r.actor_type === 'api_key' ? `the API key “${r.actor_name}”` : r.actor_name;
  const change = fromTo;
  if (r.entity === PRACTICE_SETTINGS) {
    if (r.action !== 'updated') return null;
    const parts = Object.entries(c).map(
      ([k, v]) => `${k.replaceAll('_', ' ')} from ${settingValue(change(v).from)} to ${settingValue(change(v).to)}`,
    );
    return `${who} changed the practice settings${parts.length ? `: ${parts.join('; ')}` : ''}`;
  }
  if (r.entity === CLINIC_PROFILE) {
    if (r.action !== 'updated') return null;
    const parts = Object.entries(c).map(
      ([k, v]) => `${PROFILE_FIELDS[k] ?? k} from ${settingValue(change(v).from)} to ${settingValue(change(v).to)}`,
    );
    return `${who} changed the clinic profile${parts.length ? `: ${parts.join('; ')}` : ''}`;
  }
  const resource = SETUP.get(r.entity);
  if (!resource) return null;
  const what = `the ${resource.singular} ${quoted(recordedSetupName(c) ?? current, `#${r.entity_id}`)}`;
  if (r.action === 'created') return `${who} added ${what}`;
  if (r.action === 'deleted') return `${who} deleted ${what}`;
  if (r.action === 'updated') {
    const fields = Object.keys(c).filter((k) => k !== 'updated_at');
    const renamed = change(c.name);
    if (fields.length === 1 && text(renamed.from) && text(renamed.to))
      return `${who} renamed the ${resource.singular} “${text(renamed.from)}” to “${text(renamed.to)}”`;
    return `${who} changed ${what}${fields.length ? `: ${fields.map((k) => k.replaceAll('_', ' ')).join(', ')}` : ''}`;
  }
  return null;
}

/** A time in the clinic's zone, named: "26 Nov 2026, 20:31:05 Europe/London" (the portal's Time component writes the same). */
export function clinicTime(iso: string, zone: string): string {
  const f = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });
  return `${f.format(new Date(iso))} ${zone}`;
}

const quoted = (name: string | null | undefined, fallback: string) => (name ? `“${name}”` : fallback);
const list = (v: unknown) => (Array.isArray(v) ? v.map(String).join(', ') : '');

/** One entry as a sentence a person reads; `subject` is the name of what it acted on. */
function sentence(r: AuditRow, subject: string | null, connector: ConnectorNames | null, zone: string): string {
  const setup = setupSentence(r, subject);
  if (setup) return setup;
  const c: Record<string, unknown> = r.changes ?? {};
  // An AI app names itself at registration: it is always shown as an app, and whose access it acts on.
  const who =
    r.actor_type === 'connector'
      ? `${r.actor_name} (AI app)${connector?.member ? ` on behalf of ${connector.member}` : ''}`
      : r.actor_name;
  const at = (v: unknown) => (typeof v === 'string' ? clinicTime(v, zone) : null);
  const until = at(c.previous_secret_valid_until);
  switch (r.entity) {
    case 'api_keys': {
      const key = `the API key ${quoted(subject ?? text(c.name), `#${r.entity_id}`)}`;
      if (r.action === 'created') {
        const access =
          c.access === 'restricted' && c.permissions && typeof c.permissions === 'object'
            ? describeAccess('restricted', permissionsOf(c.permissions)).toLowerCase()
            : c.access === 'read_only'
              ? 'read-only'
              : 'read and write';
        const networks = Array.isArray(c.allowed_ips) ? `, only from ${c.allowed_ips.join(', ')}` : '';
        return `${who} created ${key} (${access}${networks}, ${at(c.expires_at) ? `expires ${at(c.expires_at)}` : 'never expires'})`;
      }
      if (r.action === 'rotated')
        return `${who} rotated ${key}${until ? `; the previous secret works until ${until}` : ''}`;
      if (r.action === 'revoked') return `${who} revoked ${key}`;
      break;
    }
    case 'sessions':
      if (r.action === 'signed_in') return `${who} signed in${text(c.ip) ? ` from ${text(c.ip)}` : ''}`;
      if (r.action === 'password_accepted')
        return `${who} entered their password${text(c.ip) ? ` from ${text(c.ip)}` : ''} (second step next)`;
      if (r.action === 'second_factor_passed')
        return `${who} signed in with ${FACTOR_NAMES[String(c.method)] ?? 'a second factor'}`;
      if (r.action === 'ended')
        return `${who} ended ${String(c.sessions ?? 1)} session(s) of ${subject ?? `member #${r.entity_id}`}`;
      break;
    case 'accounts':
      if (r.action === 'two_factor_policy_changed') {
        const policy = fromTo(c.two_factor_policy);
        return `${who} set two-factor sign-in to “${POLICY_NAMES[String(policy.to)] ?? String(policy.to)}”`;
      }
      break;
    case 'users': {
      const member = subject ?? text(c.name) ?? `member #${r.entity_id}`;
      if (r.action === 'created')
        return `${who} added ${member}${text(c.email) ? ` (${text(c.email)})` : ''}${text(c.role) ? ` as ${text(c.role)}` : ''}`;
      if (r.action === 'role_changed') {
        const role = fromTo(c.role);
        return `${who} changed the role of ${member} from ${String(role.from)} to ${String(role.to)}`;
      }
      if (r.action === 'deactivated') return `${who} deactivated ${member}`;
      if (r.action === 'reactivated') return `${who} reactivated ${member}`;
      if (r.action === 'ownership_transferred') return `${who} transferred ownership of the account to ${member}`;
      const own = r.actor_type === 'user' && r.actor_id === r.entity_id;
      const sentences: Record<string, string> = {
        password_reset: own
          ? `${who} chose a new password through a reset link`
          : `${who} reset the password of ${member}`,
        password_set: `${who} chose their password through their set-up link`,
        password_changed: `${who} changed their password${Number(c.sessions_ended) ? ` (${String(c.sessions_ended)} other session(s) ended)` : ''}`,
        password_reset_started: `${who} sent ${member} a password reset link`,
        setup_link_sent: `${who} sent ${member} a set-up link`,
        totp_enabled: `${who} set up an authenticator app`,
        totp_removed: `${who} removed their authenticator app`,
        passkey_added: `${who} added the passkey “${text(c.name) ?? ''}”`,
        passkey_renamed: `${who} renamed a passkey to “${text(c.name) ?? ''}”`,
        passkey_removed: `${who} removed the passkey “${text(c.name) ?? ''}”`,
        recovery_codes_created: `${who} made new recovery codes`,
        second_factor_reset: `${who} reset the two-factor sign-in of ${member}`,
        practitioner_changed: `${who} changed the practitioner record ${member} is linked to`,
      };
      if (sentences[r.action]) return sentences[r.action];
      break;
    }
    case 'roles': {
      if (r.action !== 'updated') break;
      const parts = [list(c.added) && `added ${list(c.added)}`, list(c.removed) && `removed ${list(c.removed)}`];
      const scope = fromTo(c.record_scope);
      if (scope.from !== scope.to) parts.push(`record scope from ${String(scope.from)} to ${String(scope.to)}`);
      const changed = parts.filter(Boolean).join('; ');
      return `${who} changed the role ${quoted(subject ?? text(c.role), `#${r.entity_id}`)}${changed ? `: ${changed}` : ''}`;
    }
    case 'webhook_endpoints': {
      const endpoint = `the webhook endpoint ${subject ?? text(c.url) ?? `#${r.entity_id}`}`;
      // A member's own "Disabled by <them>" would repeat the sentence's subject; the worker's reason says why.
      const reason = text(c.reason) && text(c.reason) !== `Disabled by ${r.actor_name}` ? ` (${text(c.reason)})` : '';
      if (r.action === 'created') return `${who} added ${endpoint}${list(c.events) ? ` for ${list(c.events)}` : ''}`;
      if (r.action === 'updated')
        return `${who} updated ${endpoint}${list(c.events) ? `; it now receives ${list(c.events)}` : ''}`;
      if (r.action === 'secret_rotated')
        return `${who} rotated the signing secret of ${endpoint}${until ? `; the previous secret works until ${until}` : c.previous_secret_valid_until === null ? '; the previous secret stopped at once' : ''}`;
      if (r.action === 'enabled') return `${who} enabled ${endpoint}${reason}`;
      if (r.action === 'disabled') return `${who} disabled ${endpoint}${reason}`;
      if (r.action === 'deleted') return `${who} deleted ${endpoint}`;
      if (r.action === 'test_sent') return `${who} sent a test event to ${endpoint}`;
      if (r.action === 'replayed')
        return `${who} replayed event ${String(c.event_id)}${r.entity_id ? ` to ${endpoint}` : ''} (${counted(Number(c.messages), 'message')})`;
      if (r.action === 'recovered')
        return `${who} resent ${counted(Number(c.messages), 'failed message')} to ${endpoint}${at(c.since) ? ` since ${at(c.since)}` : ''}`;
      break;
    }
    case 'connectors': {
      const app = `the AI app ${quoted(connector?.client, `#${r.entity_id}`)}`;
      if (r.action === 'approved') return `${who} connected ${app}`;
      if (r.action === 'revoked')
        return `${who} disconnected ${app}${connector?.member ? ` of ${connector.member}` : ''}${text(c.reason) ? ` (${text(c.reason)})` : ''}`;
      break;
    }
  }
  return `${who}: ${r.action.replaceAll('_', ' ')} ${r.entity.replaceAll('_', ' ')} #${r.entity_id}`;
}

const FACTOR_NAMES: Record<string, string> = {
  totp: 'a code from their authenticator app',
  passkey: 'a passkey',
  recovery_code: 'a recovery code',
};
const POLICY_NAMES: Record<string, string> = {
  optional: 'each member chooses',
  admins: 'required for owners and admins',
  everyone: 'required for everyone',
};

/** A sentence starts with a capital, whoever's name leads it ("command line" is the CLI's). */
const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The entries matching the filters, newest first, at most `limit` (and whether there are more). */
async function entries(db: Db, accountId: number, zone: string, q: ActivityQuery, limit: number) {
  const entities: string[] = q.kind ? [...ACTIVITY_KINDS[q.kind]] : ALL;
  const clock = clockFor(zone);
  const dayStart = (day: string) => new Date(clock.toUtcLenient(`${day}T00:00:00`)).toISOString();
  const rows = await db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.account_id, accountId),
        inArray(auditLog.entity, entities),
        q.memberId ? and(eq(auditLog.actor_type, 'user'), eq(auditLog.actor_id, q.memberId)) : undefined,
        q.from ? gte(auditLog.created_at, dayStart(q.from)) : undefined,
        q.to ? lt(auditLog.created_at, dayStart(addDays(q.to, 1))) : undefined,
        q.before ? lt(auditLog.id, q.before) : undefined,
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const [connectors, names, setup] = await Promise.all([
    connectorNames(db, accountId, page),
    entityNames(db, accountId, page),
    setupNames(db, accountId, page),
  ]);
  return {
    more: rows.length > limit,
    data: page.map((r) => {
      const connector = connectors.get(r.id) ?? null;
      const subject = names.get(`${r.entity}:${r.entity_id}`) ?? setup.get(`${r.entity}:${r.entity_id}`) ?? null;
      return {
        id: r.id,
        kind: ACTIVITY_KIND_NAMES.find((k) => ACTIVITY_KINDS[k].includes(r.entity)) ?? null,
        action: r.action,
        entity_id: r.entity_id,
        actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
        connector,
        summary: capitalised(sentence(r, subject, connector, zone)),
        changes: r.changes,
        created_at: r.created_at,
      };
    }),
  };
}

export async function listActivity(db: Db, accountId: number, zone: string, q: ActivityQuery & { limit: number }) {
  const { data, more } = await entries(db, accountId, zone, q, q.limit);
  return { data, next_before: more ? data[data.length - 1].id : null };
}

/** A spreadsheet opens a cell starting with = + - @ (or a tab/CR) as a formula: names are typed by people, so such a cell is written as text. */
const cell = (v: string) => {
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** The filtered entries as CSV (newest first, at most EXPORT_LIMIT): `truncated` says older ones were left out. */
export async function exportActivity(db: Db, accountId: number, zone: string, q: Omit<ActivityQuery, 'before'>) {
  const { data, more } = await entries(db, accountId, zone, q, EXPORT_LIMIT);
  const head = ['id', 'time (UTC)', `time (${zone})`, 'who', 'kind', 'action', 'what'];
  const lines = data.map((e) =>
    [
      String(e.id),
      e.created_at,
      clinicTime(e.created_at, zone).replace(` ${zone}`, ''),
      e.actor.name,
      e.kind ?? '',
      e.action,
      e.summary,
    ]
      .map(cell)
      .join(','),
  );
  return { csv: `${[head.join(','), ...lines].join('\r\n')}\r\n`, rows: data.length, truncated: more };
}

/** Everyone who can appear as "who" in the member filter: the account's members, the deactivated ones too. */
export async function activityMembers(db: Db, accountId: number) {
  const rows = await db
    .select({ id: users.id, name: users.name, active: users.active })
    .from(users)
    .where(eq(users.account_id, accountId))
    .orderBy(users.name);
  return rows;
}
