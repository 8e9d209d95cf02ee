/**
 * Host → account. `{clinic}.{region}.{SERVICE_DOMAIN}`; the region must be one of the five and match
 * the account's. Lookups are cached briefly (accounts change rarely; a new account is never cached
 * as missing).
 */
import { eq } from 'drizzle-orm';
import type { DbHandle } from '../db/client';
import { accounts, REGIONS, type Region } from '../db/schema';
import type { Account } from './context';
import { ApiError } from './errors';

const CACHE_MS = 5000;

export class TenantResolver {
  private cache = new Map<string, { account: Account; until: number }>();
  /** The same entries by the Host header exactly as sent: the hot path skips parsing it. */
  private byHost = new Map<string, { account: Account; until: number }>();
  private readonly suffix: string;

  constructor(
    private readonly db: DbHandle,
    private readonly serviceDomain: string,
    /** The regions this deployment serves (SERVICE_REGIONS); a host of another region is 421 wrong_region. */
    private readonly served: readonly Region[] = REGIONS,
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

  /** 421 wrong_region for a clinic host of a region this deployment does not serve, else null. */
  misdirected(host: string | undefined): ApiError | null {
    // A host already resolved to a clinic is of a region served here (every request asks: no parsing).
    if (host !== undefined && this.byHost.has(host)) return null;
    const parsed = this.parse(host);
    if (!parsed || (this.served as readonly string[]).includes(parsed.region)) return null;
    return new ApiError(
      'wrong_region',
      `This deployment serves ${this.served.join(', ')}; clinics of region ${parsed.region} are served by that region's deployment at https://{clinic}.${parsed.region}.${this.serviceDomain}`,
    );
  }

  async resolve(host: string | undefined): Promise<Account | null> {
    const seen = host === undefined ? undefined : this.byHost.get(host);
    if (seen && seen.until > Date.now()) return seen.account;
    const parsed = this.parse(host);
    if (!parsed) return null;
    const misdirected = this.misdirected(host);
    if (misdirected) throw misdirected;
    const key = `${parsed.clinic}.${parsed.region}`;
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.until > now) return this.remember(host!, hit);
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
    const entry = { account, until: now + CACHE_MS };
    this.cache.set(key, entry);
    return this.remember(host!, entry);
  }

  private remember(host: string, entry: { account: Account; until: number }): Account {
    // Hosts are client input: bounded, and only hosts that named a clinic are kept.
    if (this.byHost.size > 10_000) this.byHost.clear();
    this.byHost.set(host, entry);
    return entry.account;
  }
}
