import { describe, expect, it } from 'vitest';
import { clientNetwork } from './limits.ts';

describe('what a limit per address counts', () => {
  it('is an IPv4 address, however written', () => {
    expect(clientNetwork('203.0.113.9')).toBe('203.0.113.9');
    expect(clientNetwork('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientNetwork('::FFFF:203.0.113.9')).toBe('203.0.113.9');
  });

  it('is the /64 of an IPv6 address: every address of one subscriber counts as one', () => {
    const network = '2001:db8:85a3:42::/64';
    for (const address of [
      '2001:db8:85a3:42::1',
      '2001:0db8:85a3:0042:ffff:ffff:ffff:fffe',
      '2001:db8:85a3:42:1:2:3:4',
      '2001:DB8:85A3:42::abcd%eth0',
      '2001:db8:85a3:42::192.0.2.1',
    ])
      expect(clientNetwork(address), address).toBe(network);
    expect(clientNetwork('2001:db8:85a3:43::1')).not.toBe(network);
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('fe80::1')).toBe('fe80:0:0:0::/64');
  });
});
