import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../ports/logger.js';
import type { Mailer } from '../../ports/mailer.js';

/**
 * For development without SMTP: each message is written to a file in `directory`, and the log
 * says where. The body is not logged because it carries secrets (reset links).
 */
export const createOutboxMailer = (directory: string, logger: Logger): Mailer => ({
  async send(message) {
    await mkdir(directory, { recursive: true });
    const file = join(directory, `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomUUID()}.txt`);
    await writeFile(file, `To: ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n`, { mode: 0o600 });
    logger.info(
      { to: message.to, subject: message.subject, file },
      'mail not sent (SMTP_URL unset); written to the outbox',
    );
  },
});
