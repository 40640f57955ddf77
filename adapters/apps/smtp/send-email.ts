import { boolean, defineAction, text } from '../sdk/index.js';
import { smtpAuth, withTransport } from './connection.js';

const addresses = (list: readonly (string | { address: string })[]) =>
  list.map((entry) => (typeof entry === 'string' ? entry : entry.address));

export const sendEmail = defineAction({
  key: 'sendEmail',
  name: 'Send an email',
  description: 'Sends an email through the SMTP server.',
  arguments: {
    fromName: text({ label: 'From name', acceptsVariables: true }),
    fromEmail: text({
      label: 'From email',
      description: "The connection's address when empty.",
      acceptsVariables: true,
    }),
    replyTo: text({ label: 'Reply to', acceptsVariables: true }),
    to: text({ label: 'To', required: true, description: 'Addresses separated by commas.', acceptsVariables: true }),
    cc: text({ label: 'Cc', acceptsVariables: true }),
    bcc: text({ label: 'Bcc', acceptsVariables: true }),
    subject: text({ label: 'Subject', required: true, acceptsVariables: true }),
    body: text({ label: 'Body', required: true, acceptsVariables: true }),
    html: boolean({ label: 'Body is HTML', default: false }),
  },
  async run(ctx) {
    const connection = smtpAuth.read(ctx.auth);
    const p = ctx.parameters;
    const address = p.fromEmail ?? connection.fromEmail;
    const info = await withTransport(ctx, connection, (transport) =>
      transport.sendMail({
        from: p.fromName ? { name: p.fromName, address } : address,
        to: p.to,
        ...(p.cc && { cc: p.cc }),
        ...(p.bcc && { bcc: p.bcc }),
        ...(p.replyTo && { replyTo: p.replyTo }),
        subject: p.subject,
        ...(p.html ? { html: p.body } : { text: p.body }),
      }),
    );
    return {
      messageId: String(info.messageId),
      accepted: addresses(info.accepted as (string | { address: string })[]),
      rejected: addresses(info.rejected as (string | { address: string })[]),
    };
  },
});
