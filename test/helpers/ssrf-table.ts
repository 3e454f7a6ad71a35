/**
 * The SSRF address table shared by the media fetch guard's test and the connection URLs' test
 * (docs/decisions.md §7): IPv4 and IPv6 literals in every spelling a parser folds into a
 * refused range, and test host names with their DNS answers.
 */
/** Test host names and their DNS answers. */
export const ZONE: Record<string, string[]> = {
  'img.test': ['127.0.0.1'],
  'localhost': ['127.0.0.1', '::1'],
  'metadata.google.internal': ['169.254.169.254'],
  'metadata.test': ['169.254.169.254'],
  'internal.test': ['10.0.0.5'],
  'router.test': ['192.168.1.1'],
  'cgnat.test': ['100.64.1.1'],
  'v6loop.test': ['::1'],
  'v6ula.test': ['fd00::5'],
  'v6mapped.test': ['::ffff:127.0.0.1'],
  'nat64.test': ['64:ff9b::a9fe:a9fe'],
  'sixtofour.test': ['2002:7f00:1::1'],
  'mixed.test': ['127.0.0.1', '10.0.0.1'],
  'zero.test': ['0.0.0.0'],
  'multicast.test': ['224.0.0.251'],
  'empty.test': [],
};

export const LITERAL4 = ['127.0.0.1', '127.1', '2130706433', '0x7f000001', '0177.0.0.1', '0x7f.0.0.1', '0177.1', '127.0.0.255', '127.255.255.254', '0', '0.0.0.0',
    '10.0.0.1', '10.255.255.255', '10.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', '192.168.1.1', '192.168.257', '0xc0a80001', '3232235777',
    '169.254.169.254', '169.254.0.1', '0xa9fea9fe', '2852039166', '0251.0376.0251.0376', '169.254.43518', '100.64.0.1', '100.100.100.200',
    '100.127.255.255', '192.0.0.1', '192.0.2.1', '198.18.0.1', '198.19.255.255', '198.51.100.1', '203.0.113.1', '224.0.0.1', '239.255.255.250',
    '240.0.0.1', '255.255.255.255', '192.88.99.1'];
export const LITERAL6 = ['::1', '::', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:169.254.169.254', '::ffff:10.0.0.1', '::ffff:192.168.0.1',
    '::127.0.0.1', 'fc00::1', 'fd00::1', 'fd00:ec2::254', 'fe80::1', 'febf::1', 'fec0::1', 'ff02::1', 'ff05::2', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe',
    '64:ff9b::10.0.0.1', '64:ff9b:1::1', '2002:7f00:1::', '2002:a9fe:a9fe::1', '2002:c0a8:101::1', '2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:db8::1', '100::1', '::ffff:0:0'];
export const NAMES = ['localhost', 'metadata.google.internal', 'metadata.test', 'internal.test', 'router.test', 'cgnat.test', 'v6loop.test', 'v6ula.test',
    'v6mapped.test', 'nat64.test', 'sixtofour.test', 'mixed.test', 'zero.test', 'multicast.test', 'empty.test', 'nxdomain.test'];

/** The table's DNS, in the resolver shape GuardedFetcher takes: a name not in ZONE does not resolve. */
export async function resolveInZone(host: string): Promise<{ address: string; family: 4 | 6 }[]> {
  const answers = ZONE[host];
  if (!answers) throw new Error('ENOTFOUND');
  return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}
