import ipaddr from 'ipaddr.js';

/**
 * Whether a resolved address may receive webhooks: only public unicast ones. Loopback,
 * private, link-local (the cloud metadata address 169.254.169.254 among them), carrier-grade
 * NAT (100.100.100.200), unique-local (fd00:ec2::254), multicast, unspecified and reserved
 * ranges are refused; an IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
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
