/** Accounts (tenants): creation and lookup by clinic subdomain and region. */
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { DbHandle } from '../../db/client';
import { accounts, REGIONS } from '../../db/schema';
import type { Account } from '../context';
import { clinicNameRule, currencyRule, localeRule, timeZoneRule } from './clinic-profile';
import { ensureRoles } from './team';
import { keysOf } from '../values/keys';

export class AccountError extends Error {}

export interface NewAccount {
  subdomain: string;
  region: string;
  name: string;
  timezone: string;
  currency: string;
  locale?: string;
  generation?: 'current' | 'legacy';
}

/** The account as it will be stored, or an AccountError naming the first CLI option at fault. */
/** `served`: the regions this deployment serves (SERVICE_REGIONS); an account of another region is refused. */
export function validateNewAccount(a: NewAccount, served: readonly string[] = REGIONS) {
  if (!/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(a.subdomain))
    throw new AccountError('--clinic must be a DNS label: lowercase letters, digits and hyphens');
  const region = z.enum(REGIONS).safeParse(a.region);
  if (!region.success) throw new AccountError(`--region must be one of ${REGIONS.join(', ')}`);
  if (!served.includes(region.data))
    throw new AccountError(
      `this deployment serves ${served.join(', ')} (SERVICE_REGIONS): create ${region.data} clinics with that region's deployment`,
    );
  // The profile's own rules (server/domain/clinic-profile.ts), named by the option at fault.
  const rules = { name: clinicNameRule, timezone: timeZoneRule, currency: currencyRule, locale: localeRule };
  const checked = { name: a.name, timezone: a.timezone, currency: a.currency, locale: a.locale ?? 'en' };
  for (const option of keysOf(rules)) {
    const r = rules[option].safeParse(checked[option]);
    if (!r.success) throw new AccountError(`--${option}: ${r.error.issues[0].message}`);
  }
  const locale = localeRule.parse(checked.locale);
  const timezone = timeZoneRule.parse(a.timezone);
  return { ...a, name: a.name.trim(), timezone, region: region.data, locale, generation: a.generation ?? 'current' };
}

export async function createAccount(
  db: DbHandle,
  input: NewAccount,
  served: readonly string[] = REGIONS,
): Promise<Account> {
  const a = validateNewAccount(input, served);
  const now = new Date().toISOString();
  const existing = await findAccount(db, a.subdomain);
  if (existing)
    throw new AccountError(`an account with clinic ${a.subdomain} already exists (region ${existing.region})`);
  const [row] = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(accounts)
      .values({
        subdomain: a.subdomain,
        region: a.region,
        name: a.name,
        timezone: a.timezone,
        currency: a.currency,
        locale: a.locale,
        generation: a.generation,
        created_at: now,
        updated_at: now,
      })
      .returning();
    await ensureRoles(tx, inserted[0].id);
    return inserted;
  });
  return row;
}

export async function findAccount(db: DbHandle, subdomain: string, regionName?: string): Promise<Account | null> {
  const region = regionName === undefined ? undefined : z.enum(REGIONS).safeParse(regionName).data;
  if (regionName !== undefined && !region) return null;
  const [row] = await db.db
    .select()
    .from(accounts)
    .where(
      region ? and(eq(accounts.subdomain, subdomain), eq(accounts.region, region)) : eq(accounts.subdomain, subdomain),
    );
  return row ?? null;
}
