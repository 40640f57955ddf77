import { describe, expect, it } from 'vitest';
import { identifierCheck } from './identifiers.js';
import { notificationOutput, parsePayload } from './notifications.js';

describe('parsePayload', () => {
  it('parses JSON objects and arrays', () => {
    expect(parsePayload('{"id":7,"tags":["a"]}')).toEqual({ id: 7, tags: ['a'] });
    expect(parsePayload(' [1, 2]')).toEqual([1, 2]);
  });

  it('keeps any other payload as its text, broken JSON and numbers included', () => {
    expect(parsePayload('order 7 paid')).toBe('order 7 paid');
    expect(parsePayload('{"id":')).toBe('{"id":');
    expect(parsePayload('12345678901234567890')).toBe('12345678901234567890');
    expect(parsePayload('"quoted"')).toBe('"quoted"');
    expect(parsePayload(undefined)).toBe('');
  });

  it('shapes a notification as the trigger output', () => {
    expect(notificationOutput({ channel: 'orders', payload: '{"a":1}', processId: 42 })).toEqual({
      channel: 'orders',
      payload: { a: 1 },
      processId: 42,
    });
  });
});

describe('identifierCheck', () => {
  it('takes any name Postgres keeps whole, and refuses NUL and names it would cut', () => {
    expect(identifierCheck('Orders "new"; DROP')).toBeNull();
    expect(identifierCheck('a'.repeat(63))).toBeNull();
    expect(identifierCheck('a'.repeat(64))).toBe('must be at most 63 bytes long.');
    expect(identifierCheck('é'.repeat(32))).toBe('must be at most 63 bytes long.');
    expect(identifierCheck('a\0b')).toBe('must not contain a NUL character.');
  });
});
