import type { Mailer, MailMessage } from '../../ports/mailer.js';

export { CapturingMailer } from '../../adapters/mail/capturing-mailer.js';

/**
 * A transport whose deliveries the test controls: each send waits until the test calls
 * `release()`, and the first `failures` sends reject.
 */
export class ScriptedTransport implements Mailer {
  readonly delivered: MailMessage[] = [];
  attempts = 0;
  #failuresLeft: number;
  #gate: Promise<void> = Promise.resolve();
  #open: () => void = () => {};

  constructor(options: { failures?: number; held?: boolean } = {}) {
    this.#failuresLeft = options.failures ?? 0;
    if (options.held) this.hold();
  }

  /** Makes the following sends wait until `release()`. */
  hold(): void {
    this.#gate = new Promise((resolve) => {
      this.#open = resolve;
    });
  }

  release(): void {
    this.#open();
  }

  async send(message: MailMessage): Promise<void> {
    this.attempts += 1;
    await this.#gate;
    if (this.#failuresLeft > 0) {
      this.#failuresLeft -= 1;
      throw new Error(`transport down (attempt ${this.attempts})`);
    }
    this.delivered.push(message);
  }
}
