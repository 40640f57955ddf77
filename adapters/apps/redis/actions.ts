import type { Redis } from 'ioredis';
import { type AppContext, boolean, defineAction, dropdown, keyValueList, number, text } from '../sdk/index.js';
import { redisAuth, withRedis } from './connection.js';

const key = text({ label: 'Key', required: true, acceptsVariables: true });
const list = text({ label: 'List', required: true, placeholder: 'jobs', acceptsVariables: true });

/** Runs `work` on a connection of this run's (see withRedis). */
const using = <T>(ctx: AppContext<unknown>, work: (client: Redis) => Promise<T>) =>
  withRedis(ctx, redisAuth.read(ctx.auth), work);

export const getValue = defineAction({
  key: 'getValue',
  name: 'Get value',
  description: "Reads a key's text value (GET).",
  arguments: { key },
  async run(ctx) {
    const value = await using(ctx, (client) => client.get(ctx.parameters.key));
    return { key: ctx.parameters.key, value, exists: value !== null };
  },
});

export const setValue = defineAction({
  key: 'setValue',
  name: 'Set value',
  description: 'Stores a text value under a key (SET), optionally expiring, optionally only when the key is new.',
  arguments: {
    key,
    value: text({ label: 'Value', required: true, acceptsVariables: true }),
    ttlSeconds: number({
      label: 'Expires after (seconds)',
      integer: true,
      min: 1,
      description: 'Empty: the key does not expire.',
    }),
    onlyIfNew: boolean({ label: 'Only if the key does not exist', default: false }),
  },
  async run(ctx) {
    const { key: name, value, ttlSeconds, onlyIfNew } = ctx.parameters;
    const options = [...(ttlSeconds === undefined ? [] : ['EX', ttlSeconds]), ...(onlyIfNew ? ['NX'] : [])];
    const reply = await using(ctx, (client) => client.call('SET', name, value, ...options));
    return { key: name, set: reply === 'OK' };
  },
});

export const deleteKey = defineAction({
  key: 'deleteKey',
  name: 'Delete key',
  description: 'Deletes a key of any type (DEL).',
  arguments: { key },
  async run(ctx) {
    const removed = await using(ctx, (client) => client.del(ctx.parameters.key));
    return { key: ctx.parameters.key, deleted: removed > 0 };
  },
});

export const increment = defineAction({
  key: 'increment',
  name: 'Increment',
  description:
    'Adds to the number stored under a key, from 0 when it is missing (INCRBY, or INCRBYFLOAT for a fraction).',
  arguments: {
    key,
    by: number({
      label: 'By',
      required: true,
      default: 1,
      description: 'Negative to decrease; a fraction adds as a float.',
    }),
  },
  async run(ctx) {
    const { key: name, by } = ctx.parameters;
    const value = await using(ctx, async (client) =>
      Number.isSafeInteger(by) ? await client.incrby(name, by) : Number(await client.incrbyfloat(name, by)),
    );
    return { key: name, value };
  },
});

export const publishMessage = defineAction({
  key: 'publishMessage',
  name: 'Publish message',
  description: 'Publishes a message to a channel (PUBLISH); only subscribers connected at that moment receive it.',
  arguments: {
    channel: text({ label: 'Channel', required: true, acceptsVariables: true }),
    message: text({ label: 'Message', required: true, acceptsVariables: true }),
  },
  async run(ctx) {
    const { channel, message } = ctx.parameters;
    return { receivers: await using(ctx, (client) => client.publish(channel, message)) };
  },
});

export const addToStream = defineAction({
  key: 'addToStream',
  name: 'Add to stream',
  description: 'Appends an entry to a stream (XADD), which is created when missing.',
  arguments: {
    stream: text({ label: 'Stream', required: true, acceptsVariables: true }),
    fields: keyValueList({ label: 'Fields', required: true, acceptsVariables: true }),
    maxLength: number({
      label: 'Keep about this many entries',
      integer: true,
      min: 1,
      description: 'Trims the oldest entries (MAXLEN ~): Redis keeps at least this many. Empty: no trimming.',
    }),
  },
  async run(ctx) {
    const { stream, fields, maxLength } = ctx.parameters;
    const trim = maxLength === undefined ? [] : ['MAXLEN', '~', maxLength];
    const pairs = fields.flatMap((field) => [field.key, field.value]);
    const id = await using(ctx, (client) => client.call('XADD', stream, ...trim, '*', ...pairs));
    return { stream, id: String(id) };
  },
});

const side = (label: string, fallback: 'left' | 'right') =>
  dropdown({
    label,
    default: fallback,
    options: [
      { label: 'Left (head)', value: 'left' },
      { label: 'Right (tail)', value: 'right' },
    ],
  });

export const pushToList = defineAction({
  key: 'pushToList',
  name: 'Push to list',
  description: 'Adds a value at one end of a list (RPUSH or LPUSH), which is created when missing.',
  arguments: {
    list,
    value: text({ label: 'Value', required: true, acceptsVariables: true }),
    side: side('Push to', 'right'),
  },
  async run(ctx) {
    const { list: name, value, side: end } = ctx.parameters;
    return {
      length: await using(ctx, (client) => (end === 'left' ? client.lpush(name, value) : client.rpush(name, value))),
    };
  },
});

export const popFromList = defineAction({
  key: 'popFromList',
  name: 'Pop from list',
  description: 'Takes the value at one end of a list (LPOP or RPOP); with the defaults, pushes and pops make a queue.',
  arguments: { list, side: side('Pop from', 'left') },
  async run(ctx) {
    const { list: name, side: end } = ctx.parameters;
    const value = await using(ctx, (client) => (end === 'left' ? client.lpop(name) : client.rpop(name)));
    return { value, empty: value === null };
  },
});
