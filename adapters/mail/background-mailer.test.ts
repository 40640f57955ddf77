import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScriptedTransport } from '../../test/fakes/mailers.js';
import { CapturingLogger } from '../../test/support/capturing-logger.js';
import { createBackgroundMailer } from './background-mailer.js';

const MESSAGE = { to: 'ann@example.com', subject: 'Reset your password', text: 'Follow the link.' };

/** Lets pending promise callbacks run, without moving any clock. */
const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

describe('createBackgroundMailer', () => {
  let logger: CapturingLogger;
  beforeEach(() => {
    logger = new CapturingLogger();
  });

  it('resolves send before the transport has delivered', async () => {
    const transport = new ScriptedTransport({ held: true });
    const mailer = createBackgroundMailer(transport, logger);

    await mailer.send(MESSAGE);

    expect(transport.attempts).toBe(1);
    expect(transport.delivered).toEqual([]);

    transport.release();
    await mailer.drain();
    expect(transport.delivered).toEqual([MESSAGE]);
    expect(logger.entries).toEqual([]);
  });

  it('drain waits until every accepted message is delivered', async () => {
    const transport = new ScriptedTransport({ held: true });
    const mailer = createBackgroundMailer(transport, logger);
    const second = { ...MESSAGE, to: 'bob@example.com' };
    await mailer.send(MESSAGE);
    await mailer.send(second);

    let drained = false;
    const draining = mailer.drain().then(() => {
      drained = true;
    });
    await settle();
    expect(drained).toBe(false);

    transport.release();
    await draining;
    expect(drained).toBe(true);
    expect(transport.delivered).toEqual([MESSAGE, second]);
  });

  it('drain resolves at once when nothing is pending, and again after deliveries', async () => {
    const transport = new ScriptedTransport();
    const mailer = createBackgroundMailer(transport, logger);
    await expect(mailer.drain()).resolves.toBeUndefined();

    await mailer.send(MESSAGE);
    await mailer.drain();
    await expect(mailer.drain()).resolves.toBeUndefined();
    expect(transport.delivered).toEqual([MESSAGE]);
  });

  describe('retries (fake timers)', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('retries a failing transport after 1 s, then 2 s, and delivers', async () => {
      const transport = new ScriptedTransport({ failures: 2 });
      const mailer = createBackgroundMailer(transport, logger);
      let drained = false;

      await mailer.send(MESSAGE);
      const draining = mailer.drain().then(() => {
        drained = true;
      });
      await vi.advanceTimersByTimeAsync(999);
      expect(transport.attempts).toBe(1);

      await vi.advanceTimersByTimeAsync(1);
      expect(transport.attempts).toBe(2);

      await vi.advanceTimersByTimeAsync(1999);
      expect(transport.attempts).toBe(2);
      expect(drained).toBe(false);

      await vi.advanceTimersByTimeAsync(1);
      await draining;
      expect(transport.attempts).toBe(3);
      expect(transport.delivered).toEqual([MESSAGE]);
      expect(logger.entries.map((entry) => [entry.level, entry.fields.attempt])).toEqual([
        ['warn', 1],
        ['warn', 2],
      ]);
      expect(logger.entries[0]).toMatchObject({
        message: 'mail delivery failed; retrying',
        fields: { subject: MESSAGE.subject, err: 'transport down (attempt 1)' },
      });
    });

    it('gives up after 3 attempts, logs an error, and drain still resolves', async () => {
      const transport = new ScriptedTransport({ failures: Number.POSITIVE_INFINITY });
      const mailer = createBackgroundMailer(transport, logger);

      await mailer.send(MESSAGE);
      const draining = mailer.drain();
      await vi.advanceTimersByTimeAsync(3000);
      await expect(draining).resolves.toBeUndefined();

      expect(transport.attempts).toBe(3);
      expect(transport.delivered).toEqual([]);
      expect(logger.entries.map((entry) => entry.level)).toEqual(['warn', 'warn', 'error']);
      expect(logger.entries[2]).toMatchObject({
        level: 'error',
        message: 'mail delivery failed; giving up',
        fields: { attempt: 3, subject: MESSAGE.subject, err: 'transport down (attempt 3)' },
      });

      // Nothing is left scheduled: no fourth attempt, however long we wait.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(transport.attempts).toBe(3);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('does not log the message body or recipient', async () => {
      const transport = new ScriptedTransport({ failures: Number.POSITIVE_INFINITY });
      const mailer = createBackgroundMailer(transport, logger);

      await mailer.send({ ...MESSAGE, text: 'secret-reset-token-123' });
      const draining = mailer.drain();
      await vi.advanceTimersByTimeAsync(3000);
      await draining;

      expect(logger.text()).not.toContain('secret-reset-token-123');
      expect(logger.text()).not.toContain(MESSAGE.to);
    });
  });
});
