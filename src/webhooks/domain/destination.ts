import ipaddr from 'ipaddr.js';

/**
 * Whether a resolved address may receive webhooks: only public unicast ones. Loopback,
 * private, link-local (the cloud metadata address 169.254.169.254 among them), carrier-grade
 * NAT (100.100.100.200), unique-local (fd00:ec2::254), multicast, unspecified and reserved
 * ranges are refused. An IPv6 address that carries an IPv4 one in its last 32 bits with
 * nothing before it (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`) is judged as
 * that IPv4 address; the transition ranges that carry IPv4 elsewhere (NAT64 `64:ff9b::/96` and
 * `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo `2001::/32`, IPv4-translated `::ffff:0:0:0/96`)
 * are not unicast to ipaddr.js, so they are refused whatever they carry.
 *
 * The one rule for a destination: the add and update check and the delivery agent both ask it.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return (carriedIPv4(parsed) ?? parsed).range() === 'unicast';
}

/** The IPv4 address an IPv6 one of the form `::a.b.c.d` carries (`::` and `::1` included). */
function carriedIPv4(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.kind() !== 'ipv6') return null;
  const parts = (address as ipaddr.IPv6).parts;
  if (parts.slice(0, 6).some((part) => part !== 0)) return null;
  return new ipaddr.IPv4([parts[6] >> 8, parts[6] & 0xff, parts[7] >> 8, parts[7] & 0xff]);
}

/** What is wrong with a webhook URL as written, before any lookup; null when nothing. */
export function urlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return 'url must be an http or https URL';
  }
  if (url.username !== '' || url.password !== '') {
    return 'url must not carry a user name or password';
  }
  if (url.hostname === '') return 'url must name a host';
  return null;
}

/** The host to look up: without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}
