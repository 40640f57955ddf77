import {
  AckPolicy,
  type ConsumerInfo,
  type ConsumerMessages,
  DeliverPolicy,
  type JetStreamManager,
  type JsMsg,
  nanos,
  type StoredMsg,
} from 'nats';
import { defineTrigger, dropdown, type ListenerContext, text } from '../sdk/index.js';
import { natsAuth, openConnection, whyClosed, withConnection } from './connection.js';
import { headersData, nameProblem, payloadData, subjectFilterProblem } from './subjects.js';

/** What a flow reads of a stream message: the trigger's output. */
const streamData = (msg: JsMsg | StoredMsg, deliveryCount: number) => {
  const headers = headersData('header' in msg ? msg.header : msg.headers);
  return {
    subject: msg.subject,
    data: payloadData(msg.data),
    ...(headers && { headers }),
    sequence: msg.seq,
    deliveryCount,
  };
};

/** Unacknowledged messages the server lets a consumer created here have out at once. */
export const MAX_ACK_PENDING = 20;
/** Messages asked for per pull. */
export const BATCH = 10;
const ACK_WAIT_MS = 30_000;
const PULL_EXPIRES_MS = 10_000;

const isNotFound = (error: unknown) => {
  const api = (error as { api_error?: { code?: number; err_code?: number } } | null)?.api_error;
  return api?.code === 404;
};

type Parameters = {
  stream: string;
  consumer: string;
  filterSubject?: string | undefined;
  deliverPolicy: 'all' | 'new';
};

/** The durable consumer, created (explicit acks, bounded pending) when it does not exist; one that exists is used as it is. */
const durableConsumer = async (jsm: JetStreamManager, p: Parameters): Promise<ConsumerInfo> => {
  try {
    return await jsm.consumers.info(p.stream, p.consumer);
  } catch (error) {
    if (!isNotFound(error) || /stream not found/i.test((error as Error).message)) throw error;
  }
  return jsm.consumers.add(p.stream, {
    durable_name: p.consumer,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: p.deliverPolicy === 'new' ? DeliverPolicy.New : DeliverPolicy.All,
    ack_wait: nanos(ACK_WAIT_MS),
    max_ack_pending: MAX_ACK_PENDING,
    ...(p.filterSubject && { filter_subject: p.filterSubject }),
  });
};

/** A refused message comes back after a pause that grows with its deliveries (1 s, 2 s... at most 30 s). */
const retryDelay = (deliveryCount: number) => Math.min(30_000, 1000 * deliveryCount);

const listen = async (ctx: ListenerContext<Parameters>) => {
  const { stream } = ctx.parameters;
  const { nc, where } = await openConnection(ctx, natsAuth.read(ctx.auth));
  const closing = () => {
    nc.close().catch(() => {});
  };
  ctx.signal.addEventListener('abort', closing, { once: true });
  const broken = whyClosed(nc, where);
  try {
    const info = await durableConsumer(await nc.jetstreamManager(), ctx.parameters);
    // While a run waits to be accepted, its message is kept from redelivery ("working").
    const keepAliveMs = Math.max(1000, Math.floor((info.config.ack_wait ?? nanos(ACK_WAIT_MS)) / 1e6 / 3));
    const consumer = await nc.jetstream().consumers.get(stream, ctx.parameters.consumer);
    ctx.subscribed();
    const handle = async (msg: JsMsg) => {
      const keepAlive = setInterval(() => msg.working(), keepAliveMs);
      try {
        await ctx.emit({
          id: `${stream}:${msg.seq}`,
          redelivered: msg.redelivered,
          data: streamData(msg, msg.info.deliveryCount),
        });
      } catch (error) {
        msg.nak(ctx.signal.aborted ? undefined : retryDelay(msg.info.deliveryCount));
        if (!ctx.signal.aborted)
          ctx.log.warn(
            { stream, sequence: msg.seq, reason: (error as Error).message },
            'nats: a message was not accepted',
          );
        return;
      } finally {
        clearInterval(keepAlive);
      }
      await msg.ackAck();
    };
    // A pull waits until it expires even when the connection is gone: stop it then.
    let batch: ConsumerMessages | null = null;
    nc.closed().then(() => batch?.stop());
    while (!nc.isClosed()) {
      batch = await consumer.fetch({ max_messages: BATCH, expires: PULL_EXPIRES_MS });
      for await (const msg of batch) {
        if (ctx.signal.aborted) {
          msg.nak();
          continue;
        }
        await handle(msg);
      }
    }
  } catch (error) {
    if (ctx.signal.aborted) return;
    throw nc.isClosed() ? await broken : error;
  } finally {
    ctx.signal.removeEventListener('abort', closing);
    if (!nc.isClosed()) await nc.close().catch(() => {});
  }
  if (!ctx.signal.aborted) throw await broken;
};

/** The stream's last message (the last on the filter subject when it names one): read, not consumed. */
const lastMessage = async (jsm: JetStreamManager, p: Parameters): Promise<StoredMsg | null> => {
  try {
    if (p.filterSubject && subjectFilterProblem(p.filterSubject) === null && !/[*>]/.test(p.filterSubject))
      return await jsm.streams.getMessage(p.stream, { last_by_subj: p.filterSubject });
    const { state } = await jsm.streams.info(p.stream);
    return state.messages === 0 ? null : await jsm.streams.getMessage(p.stream, { seq: state.last_seq });
  } catch (error) {
    if (isNotFound(error) && !/stream not found/i.test((error as Error).message)) return null;
    throw error;
  }
};

export const newStreamMessage = defineTrigger({
  key: 'newStreamMessage',
  name: 'New stream message',
  description:
    'Starts the flow with each message of a JetStream stream, through a durable consumer: each is acknowledged once its run is accepted, and kept for the flow while it is not listening.',
  type: 'listener',
  arguments: {
    stream: text({ label: 'Stream', required: true, placeholder: 'ORDERS', check: nameProblem }),
    consumer: text({
      label: 'Consumer',
      required: true,
      placeholder: 'conveyor-orders',
      description: 'A durable consumer of the stream; created when it does not exist.',
      check: nameProblem,
    }),
    filterSubject: text({
      label: 'Filter subject',
      placeholder: 'orders.*.created',
      description: 'A consumer created here takes only these subjects of the stream.',
      check: subjectFilterProblem,
    }),
    deliverPolicy: dropdown({
      label: 'Start with',
      default: 'all',
      description: 'For a consumer created here: every message the stream holds, or only new ones.',
      options: [
        { label: 'All messages in the stream', value: 'all' },
        { label: 'New messages only', value: 'new' },
      ],
    }),
  },
  async run(ctx) {
    const msg = await withConnection(ctx, natsAuth.read(ctx.auth), async (nc) =>
      lastMessage(await nc.jetstreamManager(), ctx.parameters),
    );
    return msg ? [{ id: `${ctx.parameters.stream}:${msg.seq}`, data: streamData(msg, 1) }] : [];
  },
  listen,
});
