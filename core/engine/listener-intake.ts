import type { Repositories } from '../../ports/repositories.js';
import type { ListenedMessage, TriggerItem } from '../../ports/step-runner.js';
import type { Step, VersionRef } from '../domain/flow.js';
import type { EngineDeps } from './deps.js';
import type { IntakeGate } from './intake-gate.js';
import { startRuns } from './start-runs.js';

/** How often a listener held back by a full backlog looks again. */
export const BACKLOG_WAIT_MS = 200;

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
 * Whether the message starts a run, decided and remembered in the transaction that records the run:
 * a message with an id once per id; one without, always, unless the server says it is a redelivery
 * of content already accepted (equal messages published twice are two messages).
 */
const isNew = (flowId: string, message: ListenedMessage, now: Date) => async (tx: Repositories) => {
  const key = messageKey(message);
  if (message.id === undefined && message.redelivered && (await tx.listeners.knowsMessage(flowId, key))) return false;
  const fresh = await tx.listeners.rememberMessages(flowId, [key], now);
  return fresh.length > 0 || message.id === undefined;
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

/**
 * Accepts one message of a listener: waits while the flow's backlog of unfinished runs is over its
 * limit (the app takes no more meanwhile), then records its run, or recognises a redelivery, in one
 * transaction. Resolving means durable: the app acknowledges the message to its server then.
 * Rejects when the subscription closes first or the run cannot be recorded.
 */
export const acceptMessage = async (
  deps: Pick<EngineDeps, 'repos' | 'uow' | 'ids' | 'clock' | 'queue' | 'logger'>,
  gate: IntakeGate,
  listening: ListeningFlow,
  message: ListenedMessage,
  signal: AbortSignal,
): Promise<void> => {
  for (;;) {
    if (signal.aborted) throw new Error('The subscription is closing.');
    const entered = gate.enter(listening.flowId);
    if (entered.ok) {
      const pass = entered.value;
      try {
        const now = deps.clock.now();
        const items = async (tx: Repositories): Promise<TriggerItem[]> =>
          (await isNew(listening.flowId, message, now)(tx)) ? [{ data: message.data }] : [];
        const ids = await startRuns(deps, {
          flowId: listening.flowId,
          trigger: listening.trigger,
          version: listening.version,
          dataIn: listening.trigger.parameters,
          items,
          testRun: false,
        });
        pass.started(ids.length);
        return;
      } finally {
        pass.leave();
      }
    }
    await wait(BACKLOG_WAIT_MS, signal);
  }
};
