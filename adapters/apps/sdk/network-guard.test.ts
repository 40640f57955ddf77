import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { assertHostAllowed, assertUrlAllowed, BlockedAddressError, guardedLookup } from './network-guard.js';

const closed = { allowPrivateNetworks: false };
const open = { allowPrivateNetworks: true };

const lookupWith = (policy: typeof closed, all: boolean) =>
  new Promise<{ error: Error | null; address: string | LookupAddress[] }>((resolve) =>
    guardedLookup(policy)('localhost', { all }, (error, address) => resolve({ error, address })),
  );

describe('assertHostAllowed', () => {
  it.each(['127.0.0.1', '10.1.2.3', '169.254.169.254', '::1', '[::1]', '::ffff:127.0.0.1', 'localhost', ''])(
    'refuses %j',
    async (host) => {
      await expect(assertHostAllowed(host, closed)).rejects.toBeInstanceOf(BlockedAddressError);
    },
  );

  it('gives back the address to connect to for a public literal', async () => {
    await expect(assertHostAllowed('8.8.8.8', closed)).resolves.toBe('8.8.8.8');
  });

  it('lets everything through, unchanged, when private networks are allowed', async () => {
    await expect(assertHostAllowed('localhost', open)).resolves.toBe('localhost');
    await expect(assertHostAllowed('127.0.0.1', open)).resolves.toBe('127.0.0.1');
  });

  it('names the host and the address it refused', async () => {
    const error = await assertHostAllowed('localhost', closed).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BlockedAddressError);
    expect((error as BlockedAddressError).message).toMatch(/localhost .*not allowed/);
  });
});

describe('assertUrlAllowed', () => {
  it.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://169.254.169.254/latest/meta-data/',
    'file:///etc/passwd',
    'ftp://example.com/',
  ])('refuses %s', (url) => {
    expect(() => assertUrlAllowed(new URL(url), closed)).toThrow(BlockedAddressError);
  });

  it('leaves host names to the connect-time lookup', () => {
    expect(() => assertUrlAllowed(new URL('http://localhost/'), closed)).not.toThrow();
  });
});

describe('guardedLookup', () => {
  it('drops internal answers, whichever form the caller asks for', async () => {
    for (const all of [true, false]) {
      const { error } = await lookupWith(closed, all);
      expect(error).toBeInstanceOf(BlockedAddressError);
    }
  });

  it('answers in the form asked for when allowed', async () => {
    const many = await lookupWith(open, true);
    expect(many.error).toBeNull();
    expect(Array.isArray(many.address)).toBe(true);
    const one = await lookupWith(open, false);
    expect(typeof one.address).toBe('string');
  });
});

describe('guardedLookup with the DNS answering', () => {
  const mixed = async () => [
    { address: '127.0.0.1', family: 4 },
    { address: '93.184.215.14', family: 4 },
    { address: '::ffff:10.0.0.1', family: 6 },
  ];
  const ask = (all: boolean) =>
    new Promise<{ error: Error | null; address: string | LookupAddress[] }>((resolve) =>
      guardedLookup(closed, mixed)('mixed.test', { all }, (error, address) => resolve({ error, address })),
    );

  it('passes on only the public addresses of an answer that mixes them with internal ones', async () => {
    expect((await ask(true)).address).toEqual([{ address: '93.184.215.14', family: 4 }]);
    expect((await ask(false)).address).toBe('93.184.215.14');
  });
});
