/**
 * The key a per-address limit counts a client under. Classified by range with ipaddr.js, never by how
 * the address happens to be spelled: an IPv4-mapped IPv6 address (::ffff:192.0.2.1) is that IPv4
 * address, and any other IPv6 address counts as its /64, the smallest block a provider hands one
 * customer (RFC 6177): a client owns the whole /64, so keying by the full address gave it 2^64 budgets.
 * Anything that is not an address (a proxy's "unknown") is its own key.
 */
import ipaddr from 'ipaddr.js';

export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
