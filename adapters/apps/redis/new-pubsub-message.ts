import { setTimeout as sleep } from 'node:timers/promises';
import { boolean, defineTrigger, type InferParameters, jsonOrText, type ListenerContext, text } from '../sdk/index.js';
import { openRedis, redisAuth } from './connection.js';
import { createInbox } from './inbox.js';
import { accepted } from './settle.js';

/** Messages held before the socket is paused. */
export const INBOX_LIMIT = 10;
/** An idle subscription pings this often, and a server that has not answered in as long is gone. */
const PING_EVERY_MS = 10_000;

const args = {
  channel: text({ label: 'Channel', required: true, placeholder: 'orders' }),
  pattern: boolean({
    label: 'Channel is a pattern',
    default: false,
    description: 'On: subscribe to every channel the glob-style pattern matches (PSUBSCRIBE), as orders.*',
  }),
} as const;

interface Received {
  readonly channel: string;
  readonly pattern?: string;
  readonly message: string;
}

/**
 * Subscribes on a connection of its own and hands each message to the flow, one at a time. Pub/sub
 * keeps nothing and acknowledges nothing: a message published while the flow is not subscribed,
 * or one emit refuses, is lost (at most once). While the flow is slow, the inbox pauses the socket.
 * An idle subscription pings the server, so that one gone silent is noticed within 20 s.
 */
const listen = async (ctx: ListenerContext<InferParameters<typeof args>>) => {
  const { channel, pattern } = ctx.parameters;
  const { client, failure } = await openRedis(ctx, redisAuth.read(ctx.auth));
  const inbox = createInbox<Received>(INBOX_LIMIT, {
    pause: () => client.stream.pause(),
    resume: () => client.stream.resume(),
  });
  client.on('message', (from: string, message: string) => inbox.push({ channel: from, message }));
  client.on('pmessage', (matched: string, from: string, message: string) =>
    inbox.push({ channel: from, pattern: matched, message }),
  );
  const closed = new Promise<void>((resolve) =>
    client.once('end', () => {
      inbox.end(ctx.signal.aborted ? null : failure(new Error('the connection closed.')));
      resolve();
    }),
  );
  const stopPinging = new AbortController();
  const ping = async () => {
    while (!stopPinging.signal.aborted) {
      await sleep(PING_EVERY_MS, undefined, { signal: stopPinging.signal });
      if (!inbox.idle) continue;
      const answered = await Promise.race([
        client.ping().then(
          () => true,
          () => true, // the connection closing says why
        ),
        sleep(PING_EVERY_MS, false, { signal: stopPinging.signal }),
      ]);
      // Messages that came before the answer may have paused the socket since: not a silent server.
      if (!answered && inbox.idle) {
        inbox.end(failure(new Error(`no answer to PING within ${PING_EVERY_MS / 1000} s.`)));
        client.disconnect();
      }
    }
  };
  try {
    await (pattern ? client.psubscribe(channel) : client.subscribe(channel));
    ctx.subscribed();
    ping().catch(() => {});
    while (!ctx.signal.aborted) {
      const received = await inbox.next();
      if (received === null || ctx.signal.aborted) break;
      const data = { ...received, message: jsonOrText(received.message) };
      if (!(await accepted(ctx.emit({ data }), ctx.signal)))
        ctx.log.debug({ channel: received.channel }, 'redis message not accepted; pub/sub does not deliver it again');
    }
  } catch (error) {
    if (!ctx.signal.aborted) throw failure(error);
  } finally {
    stopPinging.abort();
    client.disconnect();
    await closed;
  }
};

export const newPubSubMessage = defineTrigger({
  key: 'newPubSubMessage',
  name: 'New pub/sub message',
  description: 'Starts the flow with each message published to a channel (or channels matching a pattern).',
  type: 'listener',
  arguments: args,
  // Pub/sub keeps no messages to show: there is nothing to sample without waiting for one.
  run: async () => [],
  listen,
});
