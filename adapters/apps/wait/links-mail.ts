import { errorMessage } from '../../../core/domain/errors.js';
import type { AppContext } from '../sdk/index.js';
import { smtpAuth, withTransport } from '../smtp/connection.js';

/** A step without a connection runs with no credentials at all. */
export const hasConnection = (ctx: Pick<AppContext<unknown>, 'auth'>) => Object.keys(ctx.auth.data).length > 0;

/** Refuses recipients without a connection to send to them through, before the wait starts. */
export const assertCanMail = (ctx: Pick<AppContext<unknown>, 'auth'>, recipients: string | undefined) => {
  if (recipients && !hasConnection(ctx))
    throw new Error('Choose an SMTP connection to e-mail the recipients, or leave the recipients empty.');
};

export interface LinksMail {
  readonly recipients: string;
  readonly subject: string;
  readonly message: string | undefined;
  /** Each link on its own line, after its label. */
  readonly links: readonly { readonly label: string; readonly url: string }[];
  readonly deadline: number | null;
}

/**
 * Sends the links of a wait once, on the step's first turn. A failure to send fails the step for
 * good: another attempt would not be the first turn, and would wait without having sent anything.
 */
export const sendLinks = async (ctx: AppContext<unknown>, mail: LinksMail): Promise<void> => {
  const connection = smtpAuth.read(ctx.auth);
  const lines = [
    ...(mail.message ? [mail.message, ''] : []),
    ...mail.links.map((link) => `${link.label}: ${link.url}`),
    ...(mail.deadline === null ? [] : ['', `The links expire at ${new Date(mail.deadline).toISOString()}.`]),
  ];
  try {
    await withTransport(ctx, connection, (transport) =>
      transport.sendMail({
        from: connection.fromEmail,
        to: mail.recipients,
        subject: mail.subject,
        text: lines.join('\n'),
      }),
    );
  } catch (error) {
    throw new Error(`The e-mail could not be sent: ${errorMessage(error)}`);
  }
};
