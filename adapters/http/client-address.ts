import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The address rate limits count a caller by. An IPv4-mapped IPv6 address is its IPv4 address; any
 * other IPv6 address stands for its /64, the block one site usually gets, within which a host may
 * pick a new address for every request.
 */
export const rateLimitAddress = (address: string): string => {
  const bare = address.split('%')[0] ?? '';
  if (isIP(bare) !== 6) return address;
  // The URL parser writes IPv6 in its canonical form: lower case, `::` compressed, no dotted tail.
  const canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const [head = '', tail] = canonical.split('::');
  const before = head ? head.split(':') : [];
  const after = tail ? tail.split(':') : [];
  const groups = [...before, ...Array<string>(8 - before.length - after.length).fill('0'), ...after];
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') {
    const [high = 0, low = 0] = groups.slice(6).map((g) => Number.parseInt(g, 16));
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
};

/** An X-Forwarded-For entry's address, without the port some proxies add (`1.2.3.4:5678`, `[::1]:80`). */
const forwardedAddress = (entry: string): string | null => {
  const address = /^\[([^\]]+)\](?::\d+)?$/.exec(entry)?.[1] ?? /^([\d.]+):\d+$/.exec(entry)?.[1] ?? entry;
  return isIP(address.split('%')[0] ?? '') ? address : null;
};

/**
 * The caller's address, for rate limiting. Behind `trustedProxies` proxies it is the entry of
 * X-Forwarded-For the outermost of them wrote: each proxy appends the address it was called from,
 * so the entries left of it are the caller's to choose and would let one caller pass for many.
 */
export const clientAddress = (c: Context, trustedProxies: number): string => {
  if (trustedProxies > 0) {
    const entries = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const written = forwardedAddress(entries[Math.max(0, entries.length - trustedProxies)] ?? '');
    if (written) return rateLimitAddress(written);
  }
  try {
    return rateLimitAddress(getConnInfo(c).remote.address ?? 'unknown');
  } catch {
    // In-process requests (app.request in tests) have no socket.
    return 'unknown';
  }
};
