import type { Repositories } from '../../ports/repositories.js';
import type { ListenedMessage } from '../../ports/step-runner.js';
import type { Step, VersionRef } from '../domain/flow.js';
import type { EngineDeps } from './deps.js';
import type { IntakeGate, IntakePass } from './intake-gate.js';
import { startRuns } from './start-runs.js';

/** How often a listener held back by a full backlog looks again. */
export const BACKLOG_WAIT_MS = 200;
/** The most messages stored in one transaction. */
const BATCH_MAX = 100;

/** The published flow a subscription was opened for: what its messages' runs run on. */
export interface ListeningFlow {
  readonly flowId: string;
  readonly trigger: Step;
  readonly version: VersionRef | null;
}

/**
 * The key a message is remembered by: the server's id when it gives one (a redelivery has the same
 * id), else the digest of its content.
 */
const messageKey = (message: ListenedMessage) =>
  message.id === undefined ? `content:${message.contentKey}` : `id:${message.id}`;

/**
 * Which of the messages start a run, decided and remembered in the transaction that records the
 * runs: a message with an id once per id; one without, always, unless the server says it is a
 * redelivery of content already accepted (equal messages published twice are two messages). The
 * keys are inserted, not read first: on Postgres an insert waits for another transaction holding
 * the same key (a subscription being replaced while its last messages are stored), a read would not.
 */
const newOnes = (flowId: string, messages: readonly ListenedMessage[], now: Date) => async (tx: Repositories) => {
  const fresh = new Set(await tx.listeners.rememberMessages(flowId, messages.map(messageKey), now));
  return messages.filter((message) => {
    const key = messageKey(message);
    if (message.id === undefined && !message.redelivered) return true;
    // The first of the batch with this key takes it.
    return fresh.delete(key);
  });
};

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(new Error('The subscription is closing.'));
      return;
    }
    const done = () => {
      clearTimeout(timer);
      reject(new Error('The subscription is closing.'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', done);
      resolve();
    }, ms);
    signal.addEventListener('abort', done, { once: true });
  });

interface Waiting {
  readonly message: ListenedMessage;
  readonly pass: IntakePass;
  resolve(): void;
  reject(error: unknown): void;
}

export type MessageIntake = (message: ListenedMessage) => Promise<void>;

/**
 * How one subscription's messages are accepted. Each waits while the flow's backlog of unfinished
 * runs is over its limit (the app takes no more meanwhile), then is stored with its run, or
 * recognised as a redelivery: messages that arrive while a transaction is under way are stored
 * together in the next one (a group commit), so that a broker handing out many at once costs one
 * commit for them all. Resolving means durable: the app acknowledges the message to its server
 * then. Rejects when the subscription closes first or the runs cannot be recorded.
 */
export const makeMessageIntake = (
  deps: Pick<EngineDeps, 'repos' | 'uow' | 'ids' | 'clock' | 'queue' | 'logger'>,
  gate: IntakeGate,
  listening: ListeningFlow,
  signal: AbortSignal,
): MessageIntake => {
  let waiting: Waiting[] = [];
  let storing = false;

  const store = async (batch: readonly Waiting[]) => {
    let started: readonly ListenedMessage[] = [];
    await startRuns(deps, {
      flowId: listening.flowId,
      trigger: listening.trigger,
      version: listening.version,
      dataIn: listening.trigger.parameters,
      items: async (tx) => {
        started = await newOnes(
          listening.flowId,
          batch.map((w) => w.message),
          deps.clock.now(),
        )(tx);
        return started.map((message) => ({ data: message.data }));
      },
      testRun: false,
    });
    const runs = new Set(started);
    for (const w of batch) w.pass.started(runs.has(w.message) ? 1 : 0);
  };

  const drain = async () => {
    storing = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting.slice(0, BATCH_MAX);
        waiting = waiting.slice(BATCH_MAX);
        try {
          await store(batch);
          for (const w of batch) w.resolve();
        } catch (error) {
          for (const w of batch) w.reject(error);
        } finally {
          for (const w of batch) w.pass.leave();
        }
      }
    } finally {
      storing = false;
    }
  };

  return async (message) => {
    let pass: IntakePass;
    for (;;) {
      if (signal.aborted) throw new Error('The subscription is closing.');
      const entered = gate.enter(listening.flowId);
      if (entered.ok) {
        pass = entered.value;
        break;
      }
      await wait(BACKLOG_WAIT_MS, signal);
    }
    const accepted = new Promise<void>((resolve, reject) => {
      waiting.push({ message, pass, resolve, reject });
    });
    if (!storing) void drain();
    return accepted;
  };
};
