import { describe, expect, it } from 'vitest';
import { parseServers } from './connection.js';
import { headersData, nameProblem, payloadData, subjectFilterProblem, subjectProblem } from './subjects.js';

describe('NATS subjects', () => {
  it('take wildcards in subscriptions only as whole parts, > only last', () => {
    for (const subject of ['a', 'a.b', '*', '>', 'a.*.c', 'a.>', '*.*.>', '$JS.API.>'])
      expect(subjectFilterProblem(subject), subject).toBeNull();
    expect(subjectFilterProblem('')).toBe('must not be empty.');
    expect(subjectFilterProblem('a b')).toBe('must not contain spaces.');
    expect(subjectFilterProblem('a..b')).toMatch(/empty parts/);
    expect(subjectFilterProblem('.a')).toMatch(/empty parts/);
    expect(subjectFilterProblem('a.>.b')).toMatch(/> only as the whole last part/);
    expect(subjectFilterProblem('a.b*')).toMatch(/\* only as a whole part/);
  });

  it('refuse wildcards in a subject to publish to', () => {
    expect(subjectProblem('orders.created')).toBeNull();
    expect(subjectProblem('orders.*')).toMatch(/must not contain the wildcards/);
    expect(subjectProblem('orders.>')).toMatch(/must not contain the wildcards/);
  });

  it('refuse names with dots, spaces, wildcards or slashes', () => {
    expect(nameProblem('ORDERS_1-a')).toBeNull();
    for (const name of ['a.b', 'a b', 'a*', 'a>', 'a/b', 'a\\b']) expect(nameProblem(name), name).not.toBeNull();
  });
});

describe('what a flow reads of a message', () => {
  it('parses JSON payloads and keeps other text', () => {
    expect(payloadData(Buffer.from('{"a":[1,2]}'))).toEqual({ a: [1, 2] });
    expect(payloadData(Buffer.from('hello'))).toBe('hello');
    expect(payloadData(new Uint8Array())).toBe('');
  });

  it('joins repeated header values, and has no headers when there are none', () => {
    const values: Record<string, string[]> = { 'X-A': ['1'], 'X-B': ['2', '3'] };
    expect(headersData({ keys: () => Object.keys(values), values: (k) => values[k] ?? [] })).toEqual({
      'X-A': '1',
      'X-B': '2, 3',
    });
    expect(headersData({ keys: () => [], values: () => [] })).toBeUndefined();
    expect(headersData(undefined)).toBeUndefined();
  });
});

describe('parseServers', () => {
  it('reads comma-separated servers, the scheme optional and port 4222 by default', () => {
    expect(parseServers('nats://a.example.com, tls://10.0.0.1:4333 ,b:5222,[::1]')).toEqual([
      { tls: false, hostname: 'a.example.com', port: 4222 },
      { tls: true, hostname: '10.0.0.1', port: 4333 },
      { tls: false, hostname: 'b', port: 5222 },
      { tls: false, hostname: '::1', port: 4222 },
    ]);
  });

  it('refuses other schemes, credentials and an empty list', () => {
    expect(() => parseServers(' , ')).toThrow('Give at least one server');
    expect(() => parseServers('ws://a')).toThrow('is not a NATS scheme');
    expect(() => parseServers('nats://tok@a')).toThrow('in their own fields');
  });
});
