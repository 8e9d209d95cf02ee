/**
 * Host → account. `{clinic}.{region}.{SERVICE_DOMAIN}`; the region must be one of the five and match
 * the account's. Lookups are cached briefly (accounts change rarely; a new account is never cached
 * as missing).
 */
import { eq } from 'drizzle-orm';
import type { DbHandle } from '../db/client';
import { accounts, REGIONS } from '../db/schema';
import type { Account } from './context';

const CACHE_MS = 5000;

export class TenantResolver {
  private cache = new Map<string, { account: Account; until: number }>();
  private readonly suffix: string;

  constructor(
    private readonly db: DbHandle,
    serviceDomain: string,
  ) {
    this.suffix = `.${serviceDomain.toLowerCase()}`;
  }

  /** The tenant parts of a host, or null when the host is not a tenant host. */
  parse(host: string | undefined): { clinic: string; region: string } | null {
    if (!host) return null;
    const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
    if (!name.endsWith(this.suffix)) return null;
    const parts = name.slice(0, -this.suffix.length).split('.');
    if (parts.length !== 2 || !parts[0] || !(REGIONS as readonly string[]).includes(parts[1])) return null;
    return { clinic: parts[0], region: parts[1] };
  }

  async resolve(host: string | undefined): Promise<Account | null> {
    const parsed = this.parse(host);
    if (!parsed) return null;
    const key = `${parsed.clinic}.${parsed.region}`;
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.until > now) return hit.account;
    const [row] = await this.db.db.select().from(accounts).where(eq(accounts.subdomain, parsed.clinic)).limit(1);
    if (!row || row.region !== parsed.region) return null;
    const account: Account = {
      id: row.id,
      subdomain: row.subdomain,
      region: row.region,
      name: row.name,
      timezone: row.timezone,
      currency: row.currency,
      locale: row.locale,
      generation: row.generation,
    };
    this.cache.set(key, { account, until: now + CACHE_MS });
    return account;
  }
}
