import type { Logger } from '../../ports/logger.js';
import type { Mailer, MailMessage } from '../../ports/mailer.js';

const ATTEMPTS = 3;
const BACKOFF_MS = 1000;

export interface BackgroundMailer extends Mailer {
  /** Resolves when every accepted message has been delivered or given up on. */
  drain(): Promise<void>;
}

/**
 * Accepts messages at once and delivers them behind the caller's back, with a few retries. This
 * keeps SMTP latency (and whether a message was sent at all) out of response times.
 */
export const createBackgroundMailer = (inner: Mailer, logger: Logger): BackgroundMailer => {
  const pending = new Set<Promise<void>>();

  const deliver = async (message: MailMessage) => {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      try {
        await inner.send(message);
        return;
      } catch (error) {
        const fields = { attempt, subject: message.subject, err: (error as Error).message };
        if (attempt === ATTEMPTS) logger.error(fields, 'mail delivery failed; giving up');
        else {
          logger.warn(fields, 'mail delivery failed; retrying');
          await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS * attempt));
        }
      }
    }
  };

  return {
    async send(message) {
      const delivery = deliver(message).finally(() => pending.delete(delivery));
      pending.add(delivery);
    },
    async drain() {
      await Promise.all([...pending]);
    },
  };
};
