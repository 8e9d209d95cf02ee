/**
 * Deprecations, declared where the deprecated thing is declared: `deprecated` on a field (an attribute,
 * and with it its filter and sort), on a filter-only parameter, or in a route's meta. From that one
 * statement follow the document (`deprecated: true` and a sentence), /schema, the changelog's list, and
 * the `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) headers on the responses of requests that used it.
 *
 * Within v3 nothing is removed (spec: Versioning), so a sunset is for what a later version drops; a
 * deprecation without one says "still served in v3, prefer the other".
 */
import type { Resource } from './define';
import type { Field } from './fields';

export interface Deprecation {
  /** The day it became deprecated, YYYY-MM-DD (UTC). */
  since: string;
  /** The day after which it may stop working, YYYY-MM-DD (UTC). */
  sunset?: string;
  /** What to use instead: an attribute, a parameter or `METHOD /path`. */
  use?: string;
  /** Why, in a sentence. */
  note: string;
}

/** A deprecated thing of the API, as the changelog lists it. */
export interface DeprecatedItem extends Deprecation {
  kind: 'attribute' | 'filter' | 'route';
  /** `patients.custom_reference`, `events.entity` (a filter-only parameter), `GET /me`. */
  name: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Midnight UTC of a declared day; a malformed day is a mistake in a declaration, refused at once. */
function dayStart(day: string, what: string): Date {
  const at = new Date(`${day}T00:00:00Z`);
  if (!DAY.test(day) || Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== day)
    throw new Error(`${what}: ${day} is not a YYYY-MM-DD day`);
  return at;
}

/** The sentence the document and /schema put before a deprecated thing's own description. */
export function deprecationText(d: Deprecation): string {
  return [
    `Deprecated since ${d.since}`,
    d.use ? `; use ${d.use} instead` : '',
    d.sunset ? `; may stop working after ${d.sunset}` : '',
    `. ${d.note}`,
  ].join('');
}

/** A declared deprecation whose days are days, sunset not before since: a typo would otherwise surface only as a bad header. */
export function checked(item: DeprecatedItem): DeprecatedItem {
  const since = dayStart(item.since, `${item.name} deprecated.since`);
  if (item.sunset && dayStart(item.sunset, `${item.name} deprecated.sunset`) < since)
    throw new Error(`${item.name}: deprecated.sunset is before since`);
  return item;
}

/** Every deprecation the resource declarations hold, attributes first, then filter-only parameters. */
export function declaredDeprecations(resources: readonly Resource[]): DeprecatedItem[] {
  const out: DeprecatedItem[] = [];
  for (const r of resources) {
    for (const [k, f] of Object.entries(r.fields))
      if (f.deprecated) out.push({ kind: 'attribute', name: `${r.name}.${k}`, ...f.deprecated });
    for (const [k, f] of Object.entries(r.filterOnly ?? {}))
      if (f.deprecated) out.push({ kind: 'filter', name: `${r.name}.${k}`, ...f.deprecated });
  }
  return out.map(checked);
}

/** The attribute names a `sort` value names (`a,b:desc` → a, b), whatever its shape. */
function sortNames(sort: unknown): string[] {
  const values = Array.isArray(sort) ? sort : [sort];
  return values
    .filter((v): v is string => typeof v === 'string')
    .flatMap((v) => v.split(',').map((part) => part.split(':')[0].trim()));
}

/** What a request is, for finding what it used: its route's own deprecation, the resource and operation it serves. */
export interface Use {
  route?: Deprecation;
  resource?: Resource;
  kind: string;
}

/**
 * The deprecated things a request used: its route; on a list, the filters it sent and the attributes
 * it sorts by; on a create or update, the attributes its body sent. Reading a record that has a
 * deprecated attribute is not a use (every read of the resource would be): the document marks it.
 */
/** Whether a request to this route could use anything deprecated (most cannot: they skip the check). */
export function mayUseDeprecated({ route, resource }: Use): boolean {
  return route !== undefined || (resource !== undefined && declaredDeprecations([resource]).length > 0);
}

export function usedDeprecations({ route, resource, kind }: Use, input: Record<string, unknown>): Deprecation[] {
  const used: (Deprecation | undefined)[] = [route];
  if (resource && kind === 'list') {
    const filters = resource.filters as Readonly<Record<string, Field>>;
    for (const k of Object.keys(input)) if (Object.hasOwn(filters, k)) used.push(filters[k].deprecated);
    for (const k of sortNames(input.sort))
      if (Object.hasOwn(resource.fields, k)) used.push((resource.fields[k] as Field).deprecated);
  }
  if (resource && (kind === 'create' || kind === 'update')) {
    for (const k of Object.keys(input))
      if (Object.hasOwn(resource.fields, k)) used.push((resource.fields[k] as Field).deprecated);
  }
  return used.filter((d): d is Deprecation => d !== undefined);
}

/**
 * The headers of a response to a request that used deprecated things: `Deprecation` as an RFC 9745
 * structured date (`@` and Unix seconds) of the earliest, `Sunset` as the RFC 8594 HTTP-date of the
 * nearest sunset, and a `Link` to the change history that explains them.
 */
export function deprecationHeaders(used: readonly Deprecation[], changelogUrl: string): Record<string, string> {
  if (used.length === 0) return {};
  const since = Math.min(...used.map((d) => dayStart(d.since, 'deprecated.since').getTime()));
  const sunsets = used.filter((d) => d.sunset).map((d) => dayStart(d.sunset!, 'deprecated.sunset').getTime());
  return {
    Deprecation: `@${since / 1000}`,
    ...(sunsets.length ? { Sunset: new Date(Math.min(...sunsets)).toUTCString() } : {}),
    Link: `<${changelogUrl}>; rel="deprecation"; type="application/json"`,
  };
}

/** Every deprecated thing a request of this kind could use: what its answers may announce. */
export function deprecationsOf({ route, resource, kind }: Use): Deprecation[] {
  const fields = (resource?.fields ?? {}) as Record<string, Field>;
  const candidates: (Deprecation | undefined)[] = [route];
  if (resource && kind === 'list') {
    for (const f of Object.values(resource.filters as Readonly<Record<string, Field>>)) candidates.push(f.deprecated);
    for (const f of Object.values(fields)) if (f.sortable) candidates.push(f.deprecated);
  }
  if (kind === 'create' || kind === 'update')
    for (const f of Object.values(fields)) if (f.write) candidates.push(f.deprecated);
  return candidates.filter((d): d is Deprecation => d !== undefined);
}
