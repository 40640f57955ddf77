import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { defineTrigger, dropdown, type InferParameters, type ListenerContext, type Store, text } from '../sdk/index.js';
import { isReplyError, openRedis, redisAuth, withRedis } from './connection.js';
import { accepted } from './settle.js';
import {
  entryOutput,
  messageId,
  parseAutoClaimReply,
  parseEntries,
  parseReadReply,
  type StreamEntry,
} from './stream-entries.js';

/** Entries read at once: the most a flow holds unacknowledged (the rest wait in the stream). */
export const READ_COUNT = 10;
/** How long one XREADGROUP waits for new entries before it asks again. */
const BLOCK_MS = 5000;
/** Entries pending (read, never acknowledged) this long, with any consumer of the group, are claimed. */
const CLAIM_IDLE_MS = 5 * 60_000;
/** How often the pending list is looked through for such entries. */
const CLAIM_EVERY_MS = 60_000;
const CONSUMER_KEY = 'redis:consumer';

const args = {
  stream: text({ label: 'Stream', required: true, placeholder: 'orders' }),
  group: text({
    label: 'Consumer group',
    required: true,
    placeholder: 'conveyor',
    description:
      'Created (with the stream) when missing. Flows reading one group share its entries: give each flow its own group for each to see every entry.',
  }),
  consumer: text({
    label: 'Consumer name',
    description: 'Empty: a name chosen once for this flow and kept, so that it finds its own pending entries again.',
  }),
  startFrom: dropdown({
    label: 'When the group is created, start with',
    default: 'new',
    options: [
      { label: 'Entries added from now on', value: 'new' },
      { label: 'All entries already in the stream', value: 'all' },
    ],
  }),
} as const;

/** The flow's consumer name, chosen once and kept in its store. */
const consumerOf = async (store: Store): Promise<string> => {
  const kept = await store.get(CONSUMER_KEY);
  if (typeof kept === 'string' && kept !== '') return kept;
  const chosen = `conveyor-${randomUUID()}`;
  await store.set(CONSUMER_KEY, chosen);
  return chosen;
};

/** XGROUP CREATE ... MKSTREAM, unless the group exists (BUSYGROUP). */
const createGroup = async (client: Redis, stream: string, group: string, startFrom: 'new' | 'all') => {
  try {
    await client.xgroup('CREATE', stream, group, startFrom === 'new' ? '$' : '0', 'MKSTREAM');
  } catch (error) {
    if (!(isReplyError(error) && error.message.startsWith('BUSYGROUP'))) throw error;
  }
};

/**
 * Reads the group on a connection of its own, which aborting disconnects (ending a blocking read
 * at once). First the consumer's own pending entries, read from id 0: entries a previous
 * subscription received and never acknowledged (a crash, a refused emit) come again, marked
 * redelivered. Then entries of the group's pending list idle for five minutes (a consumer gone, an
 * emit refused) are claimed and delivered again, at the start and then once a minute. Otherwise new
 * entries (`>`), READ_COUNT at a time, each acknowledged once emit resolves.
 */
const listen = async (ctx: ListenerContext<InferParameters<typeof args>>) => {
  const { stream, group, startFrom } = ctx.parameters;
  const consumer = ctx.parameters.consumer ?? (await consumerOf(ctx.store));
  const { client, failure } = await openRedis(ctx, redisAuth.read(ctx.auth), { blockingMs: BLOCK_MS });
  const closed = new Promise<void>((resolve) => client.once('end', resolve));

  /** Emits, then acknowledges; an entry deleted while pending is only acknowledged. */
  const deliver = async (entry: StreamEntry, redelivered: boolean) => {
    if (entry.fields !== null) {
      const emit = ctx.emit({
        id: messageId(stream, entry.id),
        ...(redelivered && { redelivered }),
        data: entryOutput(stream, entry),
      });
      if (!(await accepted(emit, ctx.signal))) return;
    }
    await client.xack(stream, group, entry.id);
  };
  const read = async (from: string) =>
    parseReadReply(
      from === '>'
        ? await client.xreadgroup(
            'GROUP',
            group,
            consumer,
            'COUNT',
            READ_COUNT,
            'BLOCK',
            BLOCK_MS,
            'STREAMS',
            stream,
            from,
          )
        : await client.xreadgroup('GROUP', group, consumer, 'COUNT', READ_COUNT, 'STREAMS', stream, from),
    );
  /** XAUTOCLAIM came with Redis 6.2: before it, entries of a consumer gone stay where they are. */
  const claim = async (cursor: string) => {
    try {
      return parseAutoClaimReply(
        await client.xautoclaim(stream, group, consumer, CLAIM_IDLE_MS, cursor, 'COUNT', READ_COUNT),
      );
    } catch (error) {
      if (isReplyError(error) && /unknown command/i.test(error.message)) return null;
      throw error;
    }
  };

  try {
    await createGroup(client, stream, group, startFrom);
    ctx.subscribed();
    let pendingFrom: string | null = '0';
    let claimFrom = '0-0';
    let nextClaim = 0;
    while (!ctx.signal.aborted) {
      if (pendingFrom !== null) {
        const entries = await read(pendingFrom);
        for (const entry of entries) if (!ctx.signal.aborted) await deliver(entry, true);
        pendingFrom = entries.at(-1)?.id ?? null;
      } else if (Date.now() >= nextClaim) {
        const claimed = await claim(claimFrom);
        for (const entry of claimed?.entries ?? []) if (!ctx.signal.aborted) await deliver(entry, true);
        claimFrom = claimed?.cursor ?? '0-0';
        if (claimFrom === '0-0') nextClaim = claimed ? Date.now() + CLAIM_EVERY_MS : Number.POSITIVE_INFINITY;
      } else {
        for (const entry of await read('>')) if (!ctx.signal.aborted) await deliver(entry, false);
      }
    }
  } catch (error) {
    if (ctx.signal.aborted) return;
    throw failure(error);
  } finally {
    client.disconnect();
    await closed;
  }
};

export const newStreamEntry = defineTrigger({
  key: 'newStreamEntry',
  name: 'New stream entry',
  description: 'Starts the flow with each entry added to a stream, read through a consumer group.',
  type: 'listener',
  arguments: args,
  async run(ctx) {
    const { stream } = ctx.parameters;
    const last = await withRedis(ctx, redisAuth.read(ctx.auth), async (client) =>
      parseEntries(await client.xrevrange(stream, '+', '-', 'COUNT', 1)),
    );
    return last.map((entry) => ({ id: messageId(stream, entry.id), data: entryOutput(stream, entry) }));
  },
  listen,
});
