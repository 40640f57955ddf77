import { describe, expect, it } from 'vitest';
import { parseBrokerUrl } from './connection.js';
import { topicFilterProblem, topicNameProblem } from './topics.js';

describe('MQTT topics', () => {
  it('take wildcards in filters only as whole levels, # only last', () => {
    for (const filter of ['a', 'a/b', '+', '#', 'a/+/c', 'a/#', '+/+/#', '/a', 'a//b', '$share/g/a/#', 'a b/c'])
      expect(topicFilterProblem(filter), filter).toBeNull();
    expect(topicFilterProblem('')).toBe('must not be empty.');
    expect(topicFilterProblem('a/#/b')).toMatch(/# only as the whole last level/);
    expect(topicFilterProblem('a#')).toMatch(/# only as the whole last level/);
    expect(topicFilterProblem('a/b+')).toMatch(/\+ only as a whole level/);
    expect(topicFilterProblem('a\0b')).toBe('must not contain a NUL character.');
    expect(topicFilterProblem('x'.repeat(65_536))).toMatch(/too long/);
  });

  it('refuse wildcards in a topic to publish to', () => {
    expect(topicNameProblem('devices/lamp/set')).toBeNull();
    expect(topicNameProblem('devices/+/set')).toMatch(/must not contain the wildcards/);
    expect(topicNameProblem('devices/#')).toMatch(/must not contain the wildcards/);
  });
});

describe('parseBrokerUrl', () => {
  it('reads the scheme, host, port (by default the scheme one) and WebSocket path', () => {
    expect(parseBrokerUrl('mqtt://broker.example.com')).toEqual({
      protocol: 'mqtt',
      hostname: 'broker.example.com',
      port: 1883,
      path: '/',
    });
    expect(parseBrokerUrl(' mqtts://10.0.0.1:9000 ')).toMatchObject({ protocol: 'mqtts', port: 9000 });
    expect(parseBrokerUrl('wss://broker.example.com/mqtt')).toEqual({
      protocol: 'wss',
      hostname: 'broker.example.com',
      port: 443,
      path: '/mqtt',
    });
    expect(parseBrokerUrl('ws://[::1]:8080/')).toMatchObject({ hostname: '::1', port: 8080 });
  });

  it('refuses other schemes, credentials in the URL and what is no URL', () => {
    expect(() => parseBrokerUrl('http://broker')).toThrow('must start with mqtt://');
    expect(() => parseBrokerUrl('mqtt://me:secret@broker')).toThrow('in their own fields');
    expect(() => parseBrokerUrl('broker:1883')).toThrow('must start with mqtt://');
    expect(() => parseBrokerUrl('not a url')).toThrow('is not a URL');
  });
});
