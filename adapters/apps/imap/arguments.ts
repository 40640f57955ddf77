import type { ImapFlow } from 'imapflow';
import { type DraftContext, dynamicDropdown, number } from '../sdk/index.js';
import { imapAuth, withImap } from './connection.js';

export const mailbox = dynamicDropdown({
  label: 'Mailbox',
  required: true,
  default: 'INBOX',
  dynamicData: 'listMailboxes',
  acceptsVariables: true,
});

export const uid = number({
  label: 'Message UID',
  required: true,
  integer: true,
  min: 1,
  description: 'The uid of the New email trigger, or of a message in the mailbox.',
  acceptsVariables: true,
});

/** The mailboxes of the connection's account, by path, for the mailbox dropdowns. */
export const listMailboxes = async (ctx: DraftContext) =>
  withImap(ctx, imapAuth.read(ctx.auth), async (client: ImapFlow) =>
    (await client.list())
      .filter((box) => !box.flags.has('\\Noselect'))
      .map((box) => ({ name: box.path, value: box.path })),
  );
