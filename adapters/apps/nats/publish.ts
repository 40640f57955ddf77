import { type MsgHdrs, headers as natsHeaders } from 'nats';
import { defineAction, type KeyValue, keyValueList, text } from '../sdk/index.js';
import { natsAuth, withConnection } from './connection.js';
import { subjectProblem } from './subjects.js';

const subject = text({ label: 'Subject', required: true, placeholder: 'orders.created', acceptsVariables: true });
const message = text({ label: 'Message', required: true, acceptsVariables: true, description: 'Sent as UTF-8 text.' });
const headerList = keyValueList({ label: 'Headers', acceptsVariables: true });

const checkedSubject = (value: string) => {
  const problem = subjectProblem(value);
  if (problem) throw new Error(`The subject ${problem}`);
  return value;
};

const headersOf = (list: readonly KeyValue[] | undefined): MsgHdrs | undefined => {
  if (!list || list.length === 0) return undefined;
  const h = natsHeaders();
  for (const { key, value } of list) h.append(key, value);
  return h;
};

export const publishMessage = defineAction({
  key: 'publishMessage',
  name: 'Publish message',
  description: 'Publishes a message on a subject (core NATS: whoever subscribes now receives it).',
  arguments: { subject, message, headers: headerList },
  async run(ctx) {
    const target = checkedSubject(ctx.parameters.subject);
    const h = headersOf(ctx.parameters.headers);
    await withConnection(ctx, natsAuth.read(ctx.auth), async (nc) => {
      nc.publish(target, ctx.parameters.message, h ? { headers: h } : {});
      // The server has it once it answers the flush.
      await nc.flush();
    });
    return { subject: target };
  },
});

export const publishToStream = defineAction({
  key: 'publishToStream',
  name: 'Publish to stream',
  description:
    'Publishes a message to the JetStream stream that takes its subject and waits until the stream stored it.',
  arguments: {
    subject,
    message,
    headers: headerList,
    messageId: text({
      label: 'Message ID',
      acceptsVariables: true,
      description:
        "The stream stores a message with the same ID once within its duplicate window (Nats-Msg-Id). In a run, the step's own key when empty, so a retried step publishes once.",
    }),
  },
  async run(ctx) {
    const target = checkedSubject(ctx.parameters.subject);
    const h = headersOf(ctx.parameters.headers);
    const msgID = ctx.parameters.messageId ?? ctx.execution?.idempotencyKey;
    const ack = await withConnection(ctx, natsAuth.read(ctx.auth), (nc) =>
      nc.jetstream().publish(target, ctx.parameters.message, {
        ...(msgID !== undefined && { msgID }),
        ...(h && { headers: h }),
        timeout: 10_000,
      }),
    );
    return { stream: ack.stream, sequence: ack.seq, duplicate: ack.duplicate };
  },
});
