import { createHash } from 'node:crypto';
import { dynamicDropdown, restAction, segment, text } from '../sdk/index.js';

/** Discord keeps a nonce of at most 25 characters: a digest of the step's idempotency key fits. */
const nonceOf = (idempotencyKey: string) =>
  createHash('sha256').update(idempotencyKey).digest('base64url').slice(0, 25);

export const sendMessageToChannel = restAction({
  key: 'sendMessageToChannel',
  name: 'Send a message to channel',
  description: 'Sends a message to a channel of the server, as the bot.',
  arguments: {
    channel: dynamicDropdown({
      label: 'Channel',
      required: true,
      dynamicData: 'listChannels',
      acceptsVariables: true,
      description: 'Pick a channel to send the message to.',
    }),
    message: text({
      label: 'Message text',
      required: true,
      acceptsVariables: true,
      description: 'Up to 2000 characters; Discord’s Markdown applies.',
    }),
  },
  request: (p, ctx) => ({
    method: 'POST',
    path: `/channels/${segment(p.channel)}/messages`,
    body: {
      content: p.message,
      // A retried step sends the same nonce, and Discord answers the message it created already.
      ...(ctx.execution && { nonce: nonceOf(ctx.execution.idempotencyKey), enforce_nonce: true }),
    },
  }),
});
