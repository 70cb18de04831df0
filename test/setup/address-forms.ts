/**
 * Every way an IPv6 address can carry an IPv4 one, written out for a given IPv4 address: the
 * forms an attacker tries to reach loopback, a private network or the cloud metadata service
 * through a webhook URL (docs/events.md, "Safe by default").
 */

/** The IPv4 addresses no webhook may reach, by what they are. */
export const NON_PUBLIC_IPV4: ReadonlyArray<[string, string]> = [
  ['loopback', '127.0.0.1'],
  ['private 10/8', '10.0.0.1'],
  ['private 172.16/12', '172.16.0.1'],
  ['private 192.168/16', '192.168.1.1'],
  ['cloud metadata', '169.254.169.254'],
  ['carrier-grade NAT', '100.100.100.200'],
  ['unspecified', '0.0.0.0'],
];

/** The 32 bits of a dotted IPv4 address as two 16-bit hex groups. */
function hexGroups(ipv4: string): [string, string] {
  const [a, b, c, d] = ipv4.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}

/**
 * The IPv6 literals that carry `ipv4`, each as a URL host (bracketed), with a label: mapped and
 * compatible (dotted, hex and written out in full), IPv4-translated, NAT64 (both prefixes),
 * 6to4 and Teredo (whose client address is stored inverted).
 */
export function embeddedIPv4Hosts(ipv4: string): Array<[string, string]> {
  const [high, low] = hexGroups(ipv4);
  const inverted = hexGroups(
    ipv4
      .split('.')
      .map((octet) => 255 - Number(octet))
      .join('.'),
  );
  return [
    ['IPv4-mapped', `[::ffff:${ipv4}]`],
    ['IPv4-mapped, hex', `[::ffff:${high}:${low}]`],
    ['IPv4-mapped, in full', `[0:0:0:0:0:ffff:${ipv4}]`],
    ['IPv4-compatible', `[::${ipv4}]`],
    ['IPv4-compatible, hex', `[::${high}:${low}]`],
    ['IPv4-compatible, in full', `[0000:0000:0000:0000:0000:0000:${ipv4}]`],
    ['IPv4-translated', `[::ffff:0:${ipv4}]`],
    ['NAT64', `[64:ff9b::${ipv4}]`],
    ['NAT64, local-use prefix', `[64:ff9b:1::${high}:${low}]`],
    ['6to4', `[2002:${high}:${low}::1]`],
    ['Teredo', `[2001:0:4136:e378:8000:63bf:${inverted[0]}:${inverted[1]}]`],
  ];
}

/** Every non-public IPv4 address in every embedded form, as `http://host/…` URLs with labels. */
export function embeddedIPv4Urls(path = '/hook'): Array<[string, string]> {
  return NON_PUBLIC_IPV4.flatMap(([what, ipv4]) =>
    embeddedIPv4Hosts(ipv4).map(([form, host]): [string, string] => [
      `${what}, ${form}`,
      `http://${host}:8080${path}`,
    ]),
  );
}
