import { isIP } from 'node:net';

/** An IPv4 address as four octets, or null when the text is not one. */
const parseIpv4 = (text: string): number[] | null => {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const octets = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : Number.NaN));
  return octets.every((octet) => octet >= 0 && octet <= 255) ? octets : null;
};

/** An IPv6 address as eight 16-bit groups (an embedded dotted IPv4 tail included), or null. */
const parseIpv6 = (text: string): number[] | null => {
  let address = text.toLowerCase();
  const zone = address.indexOf('%');
  if (zone >= 0) address = address.slice(0, zone);
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (tail?.[1]) {
    const v4 = parseIpv4(tail[1]);
    if (!v4) return null;
    const [a = 0, b = 0, c = 0, d = 0] = v4;
    address = `${address.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string | undefined) => (half ? half.split(':') : []);
  const head = groups(halves[0]);
  const rest = groups(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  const numbers = all.map((group) => (/^[0-9a-f]{1,4}$/.test(group) ? Number.parseInt(group, 16) : Number.NaN));
  return numbers.every((n) => !Number.isNaN(n)) ? numbers : null;
};

const inIpv4Range = (octets: number[], base: readonly number[], prefix: number) => {
  for (let bit = 0; bit < prefix; bit++) {
    const index = Math.floor(bit / 8);
    const mask = 0x80 >> (bit % 8);
    if (((octets[index] ?? 0) & mask) !== ((base[index] ?? 0) & mask)) return false;
  }
  return true;
};

/** Ranges no integration should reach from a shared server: RFC 6890 special-purpose blocks. */
const IPV4_NOT_PUBLIC: readonly (readonly [readonly number[], number])[] = [
  [[0, 0, 0, 0], 8], // "this network", includes the unspecified address
  [[10, 0, 0, 0], 8],
  [[100, 64, 0, 0], 10], // carrier-grade NAT; some clouds serve metadata here
  [[127, 0, 0, 0], 8],
  [[169, 254, 0, 0], 16], // link-local, cloud metadata (169.254.169.254)
  [[172, 16, 0, 0], 12],
  [[192, 0, 0, 0], 24],
  [[192, 0, 2, 0], 24],
  [[192, 168, 0, 0], 16],
  [[198, 18, 0, 0], 15],
  [[198, 51, 100, 0], 24],
  [[203, 0, 113, 0], 24],
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved and broadcast
];

const isPublicIpv4 = (octets: number[]) => !IPV4_NOT_PUBLIC.some(([base, prefix]) => inIpv4Range(octets, base, prefix));

/** The IPv4 address an IPv6 form routes to (IPv4-mapped, IPv4-translated, NAT64, 6to4), if any. */
const embeddedIpv4 = (groups: number[]): number[] | null => {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const fromPair = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff];
  const zeroUpTo5 = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zeroUpTo5 && g5 === 0xffff) return fromPair(g6, g7);
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) return fromPair(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return fromPair(g6, g7);
  if (g0 === 0x2002) return fromPair(g1, g2);
  return null;
};

const isPublicIpv6 = (groups: number[]) => {
  const [g0 = 0, g1 = 0] = groups;
  const v4 = embeddedIpv4(groups);
  if (v4) return isPublicIpv4(v4);
  // ::/96 holds the unspecified (::) and loopback (::1) addresses and deprecated IPv4-compatible ones.
  if (groups.slice(0, 6).every((g) => g === 0)) return false;
  if ((g0 & 0xfe00) === 0xfc00) return false; // unique local fc00::/7
  if ((g0 & 0xffc0) === 0xfe80) return false; // link-local fe80::/10
  if ((g0 & 0xffc0) === 0xfec0) return false; // deprecated site-local fec0::/10
  if ((g0 & 0xff00) === 0xff00) return false; // multicast ff00::/8
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // documentation
  if (g0 === 0x0100 && groups.slice(1, 4).every((g) => g === 0)) return false; // discard 100::/64
  return true;
};

/**
 * Whether an IP address (v4 or v6, brackets allowed) lies outside every loopback, private,
 * link-local, unspecified, multicast or otherwise reserved range, IPv4-mapped forms included.
 * Text that is not an IP address is not public.
 */
export const isPublicAddress = (ip: string): boolean => {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const version = isIP(text.split('%')[0] ?? '');
  if (version === 4) {
    const octets = parseIpv4(text);
    return octets ? isPublicIpv4(octets) : false;
  }
  if (version === 6) {
    const groups = parseIpv6(text);
    return groups ? isPublicIpv6(groups) : false;
  }
  return false;
};
