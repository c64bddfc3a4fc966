import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from './config.ts';

describe('parseTrustProxy (TRUST_PROXY)', () => {
  it('is off unless set', () => {
    for (const off of ['', 'false', '0', 'off']) expect(parseTrustProxy(off)).toBe(false);
  });

  it('takes a hop count or proxy addresses and CIDR ranges', () => {
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.5,::1,loopback')).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      '::1',
      'loopback',
    ]);
  });

  it('refuses to trust every client, and anything that is no address', () => {
    expect(() => parseTrustProxy('true')).toThrow(/would believe any client/);
    expect(() => parseTrustProxy('proxy.example.com')).toThrow(/not an IP address or CIDR range/);
  });
});
