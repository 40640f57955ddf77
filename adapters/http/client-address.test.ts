import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress, rateLimitAddress } from './client-address.js';

const seenBy = async (trustedProxies: number, forwardedFor?: string) => {
  const app = new Hono().get('/', (c) => c.text(clientAddress(c, trustedProxies)));
  const res = await app.request('/', {
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  });
  return res.text();
};

describe('clientAddress', () => {
  it('ignores X-Forwarded-For unless proxies are trusted', async () => {
    expect(await seenBy(0, '203.0.113.9')).toBe('unknown');
  });

  it('takes the entry the trusted proxy wrote, not those the caller sent before it', async () => {
    expect(await seenBy(1, '203.0.113.9')).toBe('203.0.113.9');
    expect(await seenBy(1, '10.9.9.9, 1.1.1.1 , 203.0.113.9')).toBe('203.0.113.9');
    expect(await seenBy(2, '10.9.9.9, 203.0.113.9, 192.0.2.1')).toBe('203.0.113.9');
    // Fewer entries than proxies: every one was written by a proxy; the first is the outermost's.
    expect(await seenBy(3, '203.0.113.9, 192.0.2.1')).toBe('203.0.113.9');
  });

  it('drops the port some proxies add, and falls back to the socket on an entry that is no address', async () => {
    expect(await seenBy(1, '203.0.113.9:50123')).toBe('203.0.113.9');
    expect(await seenBy(1, '[2001:db8::1]:443')).toBe('2001:db8:0:0::/64');
    expect(await seenBy(1, 'evil, not-an-address')).toBe('unknown');
    expect(await seenBy(1)).toBe('unknown');
  });
});

describe('rateLimitAddress', () => {
  it('keeps IPv4 addresses, and reads IPv4-mapped IPv6 as IPv4', () => {
    expect(rateLimitAddress('203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitAddress('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(rateLimitAddress('::FFFF:cb00:7109')).toBe('203.0.113.9');
  });

  it('counts IPv6 addresses by their /64, whatever their spelling', () => {
    expect(rateLimitAddress('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitAddress('2001:0DB8:0001:0002:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
    expect(rateLimitAddress('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(rateLimitAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(rateLimitAddress('::1')).toBe('0:0:0:0::/64');
  });

  it('leaves anything else as it is', () => {
    expect(rateLimitAddress('unknown')).toBe('unknown');
  });
});
