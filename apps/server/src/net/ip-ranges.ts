import { isIP } from 'node:net';

/**
 * Which addresses the server may reach on a user's behalf. A URL that a user types (a product image, a webhook
 * endpoint) must only ever reach the public internet: never this machine, the private network it sits in, the
 * cloud's metadata service, or anything that is not a plain unicast address. IPv6 forms that carry an IPv4
 * address inside (mapped, compatible, NAT64, 6to4) are judged by the address they carry.
 */

/** Why an address is refused, or null when it is public. */
export type AddressVerdict = string | null;

interface V4Range {
  base: number;
  bits: number;
  why: string;
}

const v4 = (cidr: string, why: string): V4Range => {
  const [ip, bits] = cidr.split('/');
  return { base: v4ToInt(ip!)!, bits: Number(bits), why };
};

/** IANA's IPv4 special-purpose registry, minus nothing: none of these is a place a webhook may live. */
const V4_REFUSED: V4Range[] = [
  v4('169.254.169.254/32', 'cloud metadata address'),
  v4('0.0.0.0/8', '"this network" address'),
  v4('10.0.0.0/8', 'private address'),
  v4('100.64.0.0/10', 'carrier-grade NAT address'),
  v4('127.0.0.0/8', 'loopback address'),
  v4('169.254.0.0/16', 'link-local address'),
  v4('172.16.0.0/12', 'private address'),
  v4('192.0.0.0/24', 'IETF protocol address'),
  v4('192.0.2.0/24', 'documentation address'),
  v4('192.88.99.0/24', '6to4 relay address'),
  v4('192.168.0.0/16', 'private address'),
  v4('198.18.0.0/15', 'benchmarking address'),
  v4('198.51.100.0/24', 'documentation address'),
  v4('203.0.113.0/24', 'documentation address'),
  v4('224.0.0.0/4', 'multicast address'),
  v4('240.0.0.0/4', 'reserved address'),
];

function v4ToInt(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const b = Number(p);
    if (b > 255) return null;
    n = n * 256 + b;
  }
  return n;
}

function v4Verdict(n: number): AddressVerdict {
  for (const r of V4_REFUSED) {
    const size = 2 ** (32 - r.bits);
    if (Math.floor(n / size) === Math.floor(r.base / size)) return r.why;
  }
  return null;
}

/** The 16 bytes of an IPv6 address (a zone index is dropped), or null when it does not parse. */
export function parseIPv6(input: string): number[] | null {
  const text = input.split('%')[0]!.toLowerCase();
  if (isIP(text) !== 6) return null;
  let head = text;
  let tailV4: number[] = [];
  const lastColon = head.lastIndexOf(':');
  if (head.slice(lastColon + 1).includes('.')) {
    const n = v4ToInt(head.slice(lastColon + 1));
    if (n === null) return null;
    tailV4 = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
    // Keep a trailing "::" intact: "::ffff:1.2.3.4" -> "::ffff:" -> "::ffff".
    head = head.slice(0, lastColon + 1);
    if (!head.endsWith('::')) head = head.slice(0, -1);
  }
  const groupsWanted = 8 - tailV4.length / 2;
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const toGroups = (s: string | undefined) => (s ? s.split(':').filter((g) => g !== '') : []);
  const l = toGroups(left);
  const r = toGroups(right);
  const zeros = right === undefined ? 0 : groupsWanted - l.length - r.length;
  const groups = [...l, ...Array<string>(zeros).fill('0'), ...r];
  if (groups.length !== groupsWanted) return null;
  const bytes: number[] = [];
  for (const g of groups) {
    const v = parseInt(g, 16);
    bytes.push(v >>> 8, v & 255);
  }
  return [...bytes, ...tailV4];
}

const startsWith = (bytes: number[], prefix: number[], bits: number) => {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((bytes[byte]! & mask) !== (prefix[byte]! & mask)) return false;
  }
  return true;
};
const prefix6 = (text: string) => parseIPv6(text)!;
const v4From = (b: number[], at: number) =>
  ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;

function v6Verdict(b: number[]): AddressVerdict {
  const allZeroUpTo = (n: number) => b.slice(0, n).every((x) => x === 0);
  if (allZeroUpTo(15) && b[15] === 1) return 'loopback address';
  if (allZeroUpTo(16)) return 'unspecified address';
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (the old "compatible" form) reach the IPv4 address inside.
  if (allZeroUpTo(10) && b[10] === 0xff && b[11] === 0xff) return embedded(v4From(b, 12), 'IPv4-mapped');
  if (allZeroUpTo(12)) return embedded(v4From(b, 12), 'IPv4-compatible');
  // NAT64: the well-known prefix and the local-use one translate to the IPv4 address in the low 32 bits.
  if (startsWith(b, prefix6('64:ff9b::'), 96)) return embedded(v4From(b, 12), 'NAT64');
  if (startsWith(b, prefix6('64:ff9b:1::'), 48)) return embedded(v4From(b, 12), 'NAT64');
  // 6to4 carries an IPv4 address in bits 16-47.
  if (startsWith(b, prefix6('2002::'), 16)) return embedded(v4From(b, 2), '6to4');
  if (startsWith(b, prefix6('fd00:ec2::254'), 128)) return 'cloud metadata address';
  if (startsWith(b, prefix6('fc00::'), 7)) return 'unique local address';
  if (startsWith(b, prefix6('fe80::'), 10)) return 'link-local address';
  if (startsWith(b, prefix6('fec0::'), 10)) return 'site-local address';
  if (startsWith(b, prefix6('ff00::'), 8)) return 'multicast address';
  // Teredo hides an obfuscated IPv4 address and a relay; ORCHID and documentation ranges reach nothing real.
  if (startsWith(b, prefix6('2001::'), 32)) return 'Teredo address';
  if (startsWith(b, prefix6('2001:10::'), 28) || startsWith(b, prefix6('2001:20::'), 28)) return 'ORCHID address';
  if (startsWith(b, prefix6('2001:db8::'), 32)) return 'documentation address';
  if (startsWith(b, prefix6('100::'), 64)) return 'discard address';
  // Everything else outside global unicast (2000::/3) is reserved.
  if (!startsWith(b, prefix6('2000::'), 3)) return 'reserved address';
  return null;
}

function embedded(n: number, form: string): AddressVerdict {
  const inner = v4Verdict(n);
  return inner ? `${form} form of a ${inner}` : null;
}

/** Null when `address` (an IP literal) is a public unicast address; otherwise why it is refused. */
export function refusedAddress(address: string): AddressVerdict {
  const family = isIP(address.split('%')[0]!);
  if (family === 4) return v4Verdict(v4ToInt(address)!);
  if (family === 6) {
    const bytes = parseIPv6(address);
    return bytes ? v6Verdict(bytes) : 'unparsable address';
  }
  return 'not an IP address';
}
