import type { Mailer, MailMessage } from '../../ports/mailer.js';

/** Keeps every message it is given instead of sending it: a test's mail transport. */
export class CapturingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
}
