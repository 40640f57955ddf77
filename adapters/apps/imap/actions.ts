import type { ImapFlow } from 'imapflow';
import { type AppContext, boolean, defineAction, dynamicDropdown, text } from '../sdk/index.js';
import { mailbox, uid } from './arguments.js';
import { imapAuth, withImap } from './connection.js';
import { flagList } from './message.js';

/**
 * Runs `work` on the message with this UID in the mailbox (opened read-write), failing plainly
 * when there is none: IMAP answers OK to a UID command that matches nothing.
 */
const onMessage = <T>(
  ctx: Pick<AppContext<unknown>, 'auth' | 'network' | 'signal'>,
  path: string,
  messageUid: number,
  work: (client: ImapFlow) => Promise<T>,
) =>
  withImap(ctx, imapAuth.read(ctx.auth), async (client) => {
    await client.mailboxOpen(path);
    if (!(await client.fetchOne(String(messageUid), { uid: true }, { uid: true })))
      throw new Error(`There is no message with UID ${messageUid} in ${path}.`);
    return work(client);
  });

/** The message's flags once changed. */
const flagsOf = async (client: ImapFlow, messageUid: number) => {
  const message = await client.fetchOne(String(messageUid), { uid: true, flags: true }, { uid: true });
  return message ? flagList(message.flags) : [];
};

export const moveEmail = defineAction({
  key: 'moveEmail',
  name: 'Move email',
  description: 'Moves a message to another mailbox.',
  arguments: {
    mailbox,
    uid,
    destination: dynamicDropdown({
      label: 'Destination mailbox',
      required: true,
      dynamicData: 'listMailboxes',
      acceptsVariables: true,
    }),
  },
  async run(ctx) {
    const { mailbox: path, uid: messageUid, destination } = ctx.parameters;
    return onMessage(ctx, path, messageUid, async (client) => {
      const moved = await client.messageMove(String(messageUid), destination, { uid: true });
      const newUid = moved ? moved.uidMap?.get(messageUid) : undefined;
      return { mailbox: path, uid: messageUid, destination, destinationUid: newUid ?? null };
    });
  },
});

/** An IMAP flag: a system flag (\Flagged, \Seen...) or a keyword, both atoms (printable ASCII, no specials). */
export const FLAG = /^\\?(?:(?![(){%*"\\\]])[\x21-\x7e])+$/;

export const flagEmail = defineAction({
  key: 'flagEmail',
  name: 'Flag email',
  description: 'Sets or removes a flag (\\Flagged, \\Answered...) or a keyword of a message.',
  arguments: {
    mailbox,
    uid,
    flag: text({
      label: 'Flag',
      required: true,
      default: '\\Flagged',
      placeholder: '\\Flagged',
      description: 'A system flag (\\Flagged, \\Answered, \\Seen, \\Draft, \\Deleted) or a keyword ($Label1, Invoice).',
      check: (value) => (FLAG.test(value) ? null : 'must be a flag such as \\Flagged, or a keyword without spaces.'),
    }),
    remove: boolean({ label: 'Remove the flag', default: false }),
  },
  async run(ctx) {
    const { mailbox: path, uid: messageUid, flag, remove } = ctx.parameters;
    return onMessage(ctx, path, messageUid, async (client) => {
      if (remove) await client.messageFlagsRemove(String(messageUid), [flag], { uid: true });
      else await client.messageFlagsAdd(String(messageUid), [flag], { uid: true });
      return { mailbox: path, uid: messageUid, flags: await flagsOf(client, messageUid) };
    });
  },
});

export const markAsRead = defineAction({
  key: 'markAsRead',
  name: 'Mark email as read',
  description: 'Marks a message as read (\\Seen), or as unread.',
  arguments: {
    mailbox,
    uid,
    read: boolean({ label: 'Read', default: true, description: 'Off marks the message as unread.' }),
  },
  async run(ctx) {
    const { mailbox: path, uid: messageUid, read } = ctx.parameters;
    return onMessage(ctx, path, messageUid, async (client) => {
      if (read) await client.messageFlagsAdd(String(messageUid), ['\\Seen'], { uid: true });
      else await client.messageFlagsRemove(String(messageUid), ['\\Seen'], { uid: true });
      return { mailbox: path, uid: messageUid, flags: await flagsOf(client, messageUid) };
    });
  },
});
