import { describe, expect, it } from 'vitest';
import { parseIPv6, refusedAddress } from './ip-ranges.ts';

describe('refusedAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['0.0.0.0', '"this network"'],
    ['0.1.2.3', '"this network"'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.10.1', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fc00::1', 'unique local'],
    ['fdff:ffff::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped form of a loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped form of a loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped form of a cloud metadata'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped form of a cloud metadata'],
    ['::10.0.0.1', 'IPv4-compatible form of a private'],
    ['64:ff9b::7f00:1', 'NAT64 form of a loopback'],
    ['64:ff9b::192.168.0.1', 'NAT64 form of a private'],
    ['64:ff9b:1::a9fe:a9fe', 'NAT64 form of a cloud metadata'],
    ['2002:7f00:1::1', '6to4 form of a loopback'],
    ['2001:db8::1', 'documentation'],
    ['2001:0:4136:e378::1', 'Teredo'],
    ['4000::1', 'reserved'],
  ])('refuses %s (%s)', (address, why) => {
    expect(refusedAddress(address)).toContain(why);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('allows the public address %s', (address) => {
    expect(refusedAddress(address)).toBeNull();
  });

  it('refuses what is not an IP literal', () => {
    expect(refusedAddress('localhost')).toBe('not an IP address');
  });
});

describe('parseIPv6', () => {
  it('expands every written form to the same 16 bytes', () => {
    const loop = [...Array<number>(15).fill(0), 1];
    expect(parseIPv6('::1')).toEqual(loop);
    expect(parseIPv6('0:0:0:0:0:0:0:1')).toEqual(loop);
    expect(parseIPv6('::ffff:1.2.3.4')).toEqual(parseIPv6('::ffff:102:304'));
    expect(parseIPv6('1::')).toEqual([0, 1, ...Array<number>(14).fill(0)]);
    expect(parseIPv6('not-an-ip')).toBeNull();
  });
});
