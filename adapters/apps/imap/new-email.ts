import type { ImapFlow } from 'imapflow';
import { defineTrigger } from '../sdk/index.js';
import { mailbox } from './arguments.js';
import { createImapClient, imapAuth, imapFailure, withImap } from './connection.js';
import { emailId } from './message.js';
import { readEmail } from './read-email.js';

/** Where the trigger is in a mailbox, kept in the flow's store: the last UID handed on, of which UIDVALIDITY. */
export interface MailboxPosition {
  readonly uidValidity: string;
  readonly lastUid: number;
}

/**
 * Without traffic for this long, the session sends a NOOP, and fails when that is not answered
 * by the next time: a server that went silent is noticed within twice this.
 */
const SOCKET_TIMEOUT_MS = 15_000;
/** How soon after its own commands the session idles again (while not idling, no new mail is announced). */
const AUTO_IDLE_DELAY_MS = 200;

const sessionEnded = (reason: string) => new Error(`The IMAP session watching the mailbox ended: ${reason}`);

/** The UIDs above `lastUid` in the open mailbox, oldest first. */
const newUids = async (client: ImapFlow, lastUid: number) => {
  // `n:*` also matches the last message when every UID is below n: filtered out.
  const found = await client.search({ uid: `${lastUid + 1}:*` }, { uid: true });
  return (found || []).filter((uid) => uid > lastUid).sort((a, b) => a - b);
};

export const newEmail = defineTrigger({
  key: 'newEmail',
  name: 'New email',
  description:
    'Starts the flow for each message that arrives in a mailbox (IMAP IDLE), from the moment the flow is first published.',
  type: 'listener',
  arguments: { mailbox },
  async run(ctx) {
    // The latest message, looked at read-only (EXAMINE): nothing is marked \Seen.
    return withImap(ctx, imapAuth.read(ctx.auth), async (client) => {
      const opened = await client.mailboxOpen(ctx.parameters.mailbox, { readOnly: true });
      if (opened.exists === 0) return [];
      const latest = await readEmail(client, '*');
      return latest ? [{ id: emailId(latest.uidValidity, latest.uid), data: latest }] : [];
    });
  },
  async listen(ctx) {
    const path = ctx.parameters.mailbox;
    const key = `imap:newEmail:${path}`;
    const client = await createImapClient(ctx, imapAuth.read(ctx.auth), {
      socketTimeout: SOCKET_TIMEOUT_MS,
      autoIdleDelay: AUTO_IDLE_DELAY_MS,
    });
    let failure: Error | null = null;
    let dirty = true;
    let wake = () => {};
    const fail = (error: Error) => {
      failure ??= error;
      wake();
    };
    client.on('error', (error) => fail(sessionEnded(imapFailure(error).message)));
    client.on('close', () => fail(sessionEnded('the connection closed.')));
    client.on('exists', () => {
      dirty = true;
      wake();
    });
    const onAbort = () => wake();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      let opened: Awaited<ReturnType<ImapFlow['mailboxOpen']>>;
      try {
        await client.connect();
        opened = await client.mailboxOpen(path);
      } catch (error) {
        throw imapFailure(error);
      }
      const uidValidity = String(opened.uidValidity);
      client.on('mailboxOpen', (reopened) => {
        if (String(reopened.uidValidity) !== uidValidity)
          fail(sessionEnded('the mailbox was recreated (its UIDVALIDITY changed).'));
      });
      const stored = (await ctx.store.get(key)) as MailboxPosition | undefined;
      // First open, or a mailbox whose UIDs mean other messages now: only mail from now on.
      let lastUid = stored?.uidValidity === uidValidity ? stored.lastUid : opened.uidNext - 1;
      if (stored?.uidValidity !== uidValidity)
        await ctx.store.set(key, { uidValidity, lastUid } satisfies MailboxPosition);
      ctx.subscribed();
      try {
        while (!ctx.signal.aborted) {
          if (failure) throw failure;
          if (!dirty) {
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
            continue;
          }
          dirty = false;
          // One message at a time: the server keeps the rest until the flow has taken this one.
          for (const uid of await newUids(client, lastUid)) {
            if (ctx.signal.aborted || failure) break;
            const email = await readEmail(client, uid);
            if (email) {
              try {
                await ctx.emit({ id: emailId(uidValidity, uid), data: email });
              } catch (error) {
                if (ctx.signal.aborted) break;
                // Not taken: the position stays before it, and the next session hands it on again.
                throw new Error(`A new email could not be handed to the flow: ${(error as Error).message}`, {
                  cause: error,
                });
              }
            }
            lastUid = uid;
            await ctx.store.set(key, { uidValidity, lastUid } satisfies MailboxPosition);
          }
        }
      } catch (error) {
        // A command that failed because the session broke says so.
        throw failure ?? imapFailure(error);
      }
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      client.removeAllListeners('close');
      await client.logout().catch(() => client.close());
    }
  },
});
