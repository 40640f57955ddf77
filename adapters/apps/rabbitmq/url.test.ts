import { describe, expect, it } from 'vitest';
import { amqpUrl, parseAmqpUrl, readAmqpUrl, screenNameOf } from './url.js';

describe('parseAmqpUrl', () => {
  it('reads user, password, host, port and virtual host, percent-decoded', () => {
    expect(parseAmqpUrl('amqp://me:p%40ss%2Fw@mq.example.com:5673/my%2Fvhost')).toEqual({
      protocol: 'amqp',
      host: 'mq.example.com',
      port: 5673,
      username: 'me',
      password: 'p@ss/w',
      vhost: 'my/vhost',
    });
  });

  it('defaults as RabbitMQ clients do: port by scheme, vhost "/", guest without credentials', () => {
    expect(parseAmqpUrl('amqps://mq.example.com')).toEqual({
      protocol: 'amqps',
      host: 'mq.example.com',
      port: 5671,
      username: 'guest',
      password: 'guest',
      vhost: '/',
    });
    expect(parseAmqpUrl('amqp://u:p@[::1]/%2F')).toMatchObject({ host: '::1', port: 5672, vhost: '/' });
    expect(parseAmqpUrl('amqp://u@h/')).toMatchObject({ username: 'u', password: '', vhost: '/' });
  });

  it('refuses what is not an AMQP URI, naming the rule and never the value', () => {
    for (const bad of ['', 'mq.example.com', 'http://mq.example.com', 'amqp://', 'amqp://h/a/b', 'amqp://h/%E0%A4%A'])
      expect(parseAmqpUrl(bad)).toBeNull();
    expect(amqpUrl('http://u:secret@h')).toBe('must be an amqp:// or amqps:// URL with a host.');
    expect(amqpUrl('amqp://h')).toBeNull();
    expect(() => readAmqpUrl('http://u:secret@h')).toThrow(/^The connection's URL must be an amqp/);
    expect(() => readAmqpUrl('http://u:secret@h')).not.toThrow(/secret/);
  });
});

describe('screenNameOf', () => {
  it('is user@host:port/vhost, without the password', () => {
    expect(screenNameOf(readAmqpUrl('amqp://me:secret@mq.example.com/orders'))).toBe('me@mq.example.com:5672/orders');
    expect(screenNameOf(readAmqpUrl('amqps://me:secret@[::1]:5671'))).toBe('me@[::1]:5671/');
  });
});
