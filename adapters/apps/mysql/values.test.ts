import { describe, expect, it } from 'vitest';
import { jsonSafe } from './values.js';

describe('mysql values made JSON-safe', () => {
  it('convert BigInt, Buffer and Date, inside objects and arrays too', () => {
    expect(
      jsonSafe({
        small: 42n,
        big: 2n ** 64n,
        bytes: Buffer.from([0, 1, 255]),
        at: new Date('2024-05-06T07:08:09.123Z'),
        invalid: new Date('nope'),
        json: { list: [1n, Buffer.from('a')] },
        text: 'x',
        none: null,
        missing: undefined,
        infinite: Number.POSITIVE_INFINITY,
      }),
    ).toEqual({
      small: 42,
      big: '18446744073709551616',
      bytes: 'AAH/',
      at: '2024-05-06T07:08:09.123Z',
      invalid: null,
      json: { list: [1, 'YQ=='] },
      text: 'x',
      none: null,
      missing: null,
      infinite: 'Infinity',
    });
  });
});
