/**
 * Which IP addresses Herald may fetch user-given URLs from: global unicast only. Everything a
 * request could use to reach this machine, its network or a cloud metadata service is refused:
 * private, loopback, link-local, CGNAT, multicast, reserved, documentation, unspecified, and
 * IPv6 forms that embed one of those IPv4 addresses (mapped, compatible, NAT64, 6to4). Teredo
 * and other tunnel or special-purpose IPv6 blocks are refused whole.
 */
import net from 'node:net';

type Cidr = [bytes: number[], bits: number, why: string];

const V4_BLOCKED: Cidr[] = [
  [[0, 0, 0, 0], 8, 'unspecified ("this network")'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'carrier-grade NAT'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link-local (cloud metadata)'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'IETF protocol assignments'],
  [[192, 0, 2, 0], 24, 'documentation'],
  [[192, 88, 99, 0], 24, '6to4 relay'],
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'benchmarking'],
  [[198, 51, 100, 0], 24, 'documentation'],
  [[203, 0, 113, 0], 24, 'documentation'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[240, 0, 0, 0], 4, 'reserved or broadcast'],
];

function inCidr(addr: number[], [net, bits]: Cidr): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if ((addr[byte] & mask) !== (net[byte] & mask)) return false;
  }
  return true;
}

function parseV4(s: string): number[] | undefined {
  if (!net.isIPv4(s)) return undefined;
  return s.split('.').map(Number);
}

/** 16 bytes of an IPv6 address (with or without brackets or a zone). */
export function parseV6(input: string): number[] | undefined {
  const s = input.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!net.isIPv6(s)) return undefined;
  let groups: number[] = [];
  let tailV4: number[] = [];
  let text = s;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    tailV4 = parseV4(text.slice(lastColon + 1)) ?? [];
    text = text.slice(0, lastColon + 1) + '0:0';
  }
  const [left, right] = text.split('::');
  const toGroups = (p: string | undefined) =>
    p
      ? p
          .split(':')
          .filter((g) => g !== '')
          .map((g) => parseInt(g, 16))
      : [];
  const l = toGroups(left);
  const r = right === undefined ? [] : toGroups(right);
  const fill = right === undefined ? 0 : 8 - l.length - r.length;
  groups = [...l, ...Array(fill).fill(0), ...r];
  if (groups.length !== 8) return undefined;
  const bytes = groups.flatMap((g) => [g >> 8, g & 0xff]);
  if (tailV4.length === 4) bytes.splice(12, 4, ...tailV4);
  return bytes;
}

const eq = (a: number[], b: number[]) => a.every((x, i) => x === b[i]);

function v4Reason(b: number[]): string | undefined {
  for (const c of V4_BLOCKED) if (inCidr(b, c)) return c[2];
  return undefined;
}

function v6Reason(b: number[]): string | undefined {
  const zeros10 = b.slice(0, 10).every((x) => x === 0);
  if (zeros10 && b[10] === 0xff && b[11] === 0xff) {
    const why = v4Reason(b.slice(12));
    return why ? `IPv4-mapped ${why}` : undefined;
  }
  if (b.slice(0, 12).every((x) => x === 0)) {
    if (b.slice(12).every((x) => x === 0)) return 'unspecified';
    if (eq(b.slice(12), [0, 0, 0, 1])) return 'loopback';
    return 'IPv4-compatible (deprecated)';
  }
  if (inCidr(b, [[0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0], 96, ''])) {
    const why = v4Reason(b.slice(12));
    return why ? `NAT64 of ${why}` : undefined;
  }
  if (inCidr(b, [[0x20, 0x02], 16, ''])) {
    const why = v4Reason(b.slice(2, 6));
    return why ? `6to4 of ${why}` : undefined;
  }
  // Only global unicast (2000::/3) remains; inside it, the special-purpose and tunnel blocks.
  if ((b[0] & 0xe0) !== 0x20) {
    if ((b[0] & 0xfe) === 0xfc) return 'unique local';
    if (b[0] === 0xfe && (b[1] & 0xc0) === 0x80) return 'link-local';
    if (b[0] === 0xfe && (b[1] & 0xc0) === 0xc0) return 'site-local';
    if (b[0] === 0xff) return 'multicast';
    return 'reserved';
  }
  if (inCidr(b, [[0x20, 0x01, 0x00, 0x00], 23, ''])) return 'IETF special purpose (Teredo, ORCHID, benchmarking)';
  if (inCidr(b, [[0x20, 0x01, 0x0d, 0xb8], 32, ''])) return 'documentation';
  if (inCidr(b, [[0x3f, 0xff], 20, ''])) return 'documentation';
  return undefined;
}

/**
 * Why `address` (an IP literal) must not be fetched from, or undefined when it is a public
 * address. Anything that does not parse as an IP is refused.
 */
export function blockedReason(address: string): string | undefined {
  const v4 = parseV4(address);
  if (v4) return v4Reason(v4);
  const v6 = parseV6(address);
  if (v6) return v6Reason(v6);
  return 'not an IP address';
}

/** The IP literal in a WHATWG-parsed hostname, or undefined for a DNS name. */
export function ipLiteral(hostname: string): string | undefined {
  const h = hostname.replace(/^\[|\]$/g, '');
  return net.isIP(h) ? h : undefined;
}

/**
 * Whether `address` is loopback or a private range (RFC 1918, IPv6 unique local, and their
 * IPv4-mapped forms): what HERALD_ALLOW_PRIVATE_ADDRESSES lets through, for a Mastodon or PDS at
 * home. Link-local (cloud metadata), CGNAT, multicast and the special ranges are not in it.
 */
export function isLoopbackOrPrivate(address: string): boolean {
  const why = blockedReason(address);
  return why !== undefined && /^(IPv4-mapped )?(loopback|private|unique local)$/.test(why);
}
