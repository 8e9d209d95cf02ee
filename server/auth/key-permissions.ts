/**
 * Restricted keys: a key may hold, per group of resources, no access, read, or write (write includes
 * read), and may be limited to a list of client networks: what people send for them, read here. The
 * groups are named in server/auth/key-groups.ts; each resource names its group in its declaration
 * (server/resources/*.ts, `permission`), and the route table gives every route the group of its resource
 * (server/rest/routes.ts). A key that is not restricted holds every group at its access, from any network.
 */
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { GROUP_ACCESS, GROUP_NAMES, perGroup, type KeyGroup, type KeyPermissions } from './key-groups';

/** Permissions as sent: every group optional (left out is none), at least one granted. */
export const permissionsInput = z
  .strictObject(
    Object.fromEntries(GROUP_NAMES.map((g) => [g, z.enum(GROUP_ACCESS).optional()])) as {
      [G in KeyGroup]: z.ZodOptional<z.ZodEnum<{ none: 'none'; read: 'read'; write: 'write' }>>;
    },
  )
  .transform((p): KeyPermissions => perGroup((g) => p[g] ?? 'none'))
  .refine((p) => GROUP_NAMES.some((g) => p[g] !== 'none'), {
    message: `Grant read or write on at least one group (${GROUP_NAMES.join(', ')}): a key with none can call nothing`,
  });

/** At most this many networks per key: a list an admin keeps by hand, not a firewall. */
export const ALLOWED_IPS_MAX = 20;

/** An address or a CIDR network, written back in its canonical form (`10.0.0.0/8`, `2001:db8::/32`). */
const network = z.string().transform((raw, ctx) => {
  const text = raw.trim();
  try {
    const [ip, bits] = text.includes('/') ? ipaddr.parseCIDR(text) : [ipaddr.parse(text), null];
    const plain =
      ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress() ? (ip as ipaddr.IPv6).toIPv4Address() : ip;
    const width = plain.kind() === 'ipv4' ? 32 : 128;
    const prefix = bits === null ? width : plain === ip ? bits : bits - 96;
    if (prefix < 0) throw new Error('prefix');
    const base = ipaddr.fromByteArray(maskBytes(plain.toByteArray(), prefix));
    return prefix === width ? base.toString() : `${base.toString()}/${prefix}`;
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: `Not an IP address or CIDR network: ${text.slice(0, 60)} (e.g. 203.0.113.7 or 10.0.0.0/8)`,
    });
    return z.NEVER;
  }
});

function maskBytes(bytes: number[], prefix: number): number[] {
  return bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
}

export const allowedIpsInput = z
  .array(network)
  .max(ALLOWED_IPS_MAX, `At most ${ALLOWED_IPS_MAX} networks per key`)
  .transform((list) => [...new Set(list)]);

/** Whether a client address falls in one of the networks (IPv4-mapped IPv6 addresses count as IPv4). */
export function addressAllowed(address: string | undefined, networks: readonly string[]): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  return networks.some((n) => {
    const [base, bits] = n.includes('/') ? ipaddr.parseCIDR(n) : [ipaddr.parse(n), ip.kind() === 'ipv4' ? 32 : 128];
    return base.kind() === ip.kind() && ip.match(base, bits);
  });
}
