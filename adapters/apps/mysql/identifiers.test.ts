import { describe, expect, it } from 'vitest';
import { equalities, quoteIdentifier, quoteTable, tableParts } from './identifiers.js';

describe('mysql identifiers', () => {
  it('quote any name with backticks, doubling the backticks inside', () => {
    expect(quoteIdentifier('orders')).toBe('`orders`');
    expect(quoteIdentifier('user name')).toBe('`user name`');
    expect(quoteIdentifier('a`b')).toBe('`a``b`');
    expect(quoteIdentifier('x`; DROP TABLE y; --')).toBe('`x``; DROP TABLE y; --`');
    expect(quoteIdentifier('select')).toBe('`select`');
  });

  it('refuse an empty name or one with NUL', () => {
    expect(() => quoteIdentifier('')).toThrow('"" is not a valid identifier.');
    expect(() => quoteIdentifier('a\0b')).toThrow(/not a valid identifier/);
  });

  it('take table or database.table', () => {
    expect(tableParts(' orders ')).toEqual({ database: null, table: 'orders' });
    expect(tableParts('shop.orders')).toEqual({ database: 'shop', table: 'orders' });
    expect(quoteTable('shop . orders')).toBe('`shop`.`orders`');
    expect(() => quoteTable('a.b.c')).toThrow('"a.b.c" is not a table name (use table or database.table).');
    expect(() => quoteTable('')).toThrow(/not a valid identifier/);
    expect(() => quoteTable('shop.')).toThrow(/not a valid identifier/);
  });

  it('write equalities with placeholders only', () => {
    expect(
      equalities(
        [
          { key: 'a', value: "x' OR 1=1" },
          { key: 'b`c', value: '2' },
        ],
        ' AND ',
      ),
    ).toBe('`a` = ? AND `b``c` = ?');
  });
});
