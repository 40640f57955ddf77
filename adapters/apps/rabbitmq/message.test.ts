import type { Message } from 'amqplib';
import { describe, expect, it } from 'vitest';
import { contentOf, jsonSafe, listenerMessage } from './message.js';

const message = (content: string, properties: Partial<Message['properties']> = {}, redelivered = false): Message => ({
  content: Buffer.from(content),
  fields: { deliveryTag: 3, redelivered, exchange: 'ex', routingKey: 'rk', consumerTag: 'ctag' } as Message['fields'],
  properties: {
    contentType: undefined,
    contentEncoding: undefined,
    headers: {},
    deliveryMode: undefined,
    priority: undefined,
    correlationId: undefined,
    replyTo: undefined,
    expiration: undefined,
    messageId: undefined,
    timestamp: undefined,
    type: undefined,
    userId: undefined,
    appId: undefined,
    clusterId: undefined,
    ...properties,
  },
});

describe('contentOf', () => {
  it('parses JSON when the content type says so, or when there is none and it parses', () => {
    expect(contentOf(Buffer.from('{"a":1}'), 'application/json')).toEqual({ a: 1 });
    expect(contentOf(Buffer.from('{"a":1}'), 'application/vnd.api+json; charset=utf-8')).toEqual({ a: 1 });
    expect(contentOf(Buffer.from('[1,2]'), undefined)).toEqual([1, 2]);
    expect(contentOf(Buffer.from('not json'), 'application/json')).toBe('not json');
  });

  it('keeps other content as UTF-8 text, also JSON-looking text labelled as text', () => {
    expect(contentOf(Buffer.from('héllo'), undefined)).toBe('héllo');
    expect(contentOf(Buffer.from('42'), 'text/plain')).toBe('42');
    expect(contentOf(Buffer.from(''), undefined)).toBe('');
  });
});

describe('jsonSafe', () => {
  it('turns byte arrays into text (base64 when not UTF-8) and drops undefined entries, deeply', () => {
    expect(
      jsonSafe({
        a: Buffer.from('text'),
        b: [Buffer.from([0xff, 0xfe])],
        c: { d: undefined, e: 1n, f: { '!': 'timestamp', value: 5 } },
        g: null,
      }),
    ).toEqual({ a: 'text', b: ['//4='], c: { e: 1, f: { '!': 'timestamp', value: 5 } }, g: null });
  });
});

describe('listenerMessage', () => {
  it('takes the id from messageId, redelivered from the fields, and only the properties set', () => {
    const received = listenerMessage(
      message('{"n":1}', { messageId: 'm-1', contentType: 'application/json', headers: { h: Buffer.from('v') } }, true),
    );
    expect(received).toEqual({
      id: 'm-1',
      redelivered: true,
      data: {
        content: { n: 1 },
        properties: { messageId: 'm-1', contentType: 'application/json', headers: { h: 'v' } },
        fields: { deliveryTag: 3, redelivered: true, exchange: 'ex', routingKey: 'rk', consumerTag: 'ctag' },
      },
    });
    expect(JSON.parse(JSON.stringify(received))).toEqual(received);
  });

  it('has no id when the message has no messageId', () => {
    expect(listenerMessage(message('x'))).not.toHaveProperty('id');
    expect(listenerMessage(message('x', { messageId: '' }))).not.toHaveProperty('id');
  });
});
