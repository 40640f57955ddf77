import { describe, expect, it } from 'vitest';
import {
  entryOutput,
  fieldsObject,
  messageId,
  parseAutoClaimReply,
  parseEntries,
  parseReadReply,
} from './stream-entries.js';

describe('stream replies', () => {
  it('turn field lists into objects of text, the later of a repeated field winning', () => {
    expect(fieldsObject(['a', '1', 'b', '{"x":1}', 'a', '2'])).toEqual({ a: '2', b: '{"x":1}' });
    const odd = fieldsObject(['__proto__', 'x', 'constructor', 'y']);
    expect(Object.keys(odd)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(odd)).toBe(Object.prototype);
  });

  it('read XREADGROUP: entries of the one stream, none on a timeout, null fields for deleted entries', () => {
    expect(parseReadReply(null)).toEqual([]);
    expect(parseReadReply([])).toEqual([]);
    expect(
      parseReadReply([
        [
          'orders',
          [
            ['1-0', ['sku', 'a']],
            ['2-0', null],
          ],
        ],
      ]),
    ).toEqual([
      { id: '1-0', fields: { sku: 'a' } },
      { id: '2-0', fields: null },
    ]);
    expect(() => parseReadReply('OK')).toThrow('unexpected shape');
  });

  it('read XAUTOCLAIM replies of Redis 6.2 and 7', () => {
    expect(parseAutoClaimReply(['0-0', [['1-0', ['a', 'b']]]])).toEqual({
      cursor: '0-0',
      entries: [{ id: '1-0', fields: { a: 'b' } }],
    });
    expect(parseAutoClaimReply(['5-0', [], ['3-0']])).toEqual({ cursor: '5-0', entries: [] });
    expect(() => parseAutoClaimReply(['0-0'])).toThrow('unexpected shape');
  });

  it('give each entry an id stable across deliveries, distinct between streams', () => {
    const [entry] = parseEntries([['1700000000000-0', ['n', '1']]]);
    expect(entry && messageId('orders', entry.id)).toBe('orders:1700000000000-0');
    expect(entry && entryOutput('orders', entry)).toEqual({
      stream: 'orders',
      id: '1700000000000-0',
      fields: { n: '1' },
    });
    expect(entryOutput('orders', { id: '2-0', fields: null })).toEqual({ stream: 'orders', id: '2-0', fields: {} });
  });
});
