import type { StepCallRepository } from '../../ports/agent-repositories.js';
import type { Clock } from '../../ports/clock.js';
import type { IdGenerator } from '../../ports/ids.js';
import { UnstorableTextError } from '../../ports/unstorable-text.js';
import type { StepCall, StepCallKind, StepCallStatus } from '../domain/agent.js';

/** How a call ended, or that it waits for a person again, or runs again. */
export type CallChanges = Pick<StepCall, 'status' | 'output' | 'error' | 'usage'>;

/**
 * The calls one step made, in order (`seq`): what a step run again reads instead of calling again.
 * Every call is written before it is made and again when it ends, so that a crash leaves either no
 * row (never made), a row `running` or `waiting` (maybe made, or waiting for a person), or an ended
 * row (made: never again).
 */
export interface CallJournal {
  /** The call recorded at that place, from an earlier turn of the step; null when none. */
  at(seq: number): StepCall | null;
  /** Records a call about to be made (or to wait for approval); answers the one already there, if any. */
  begin(
    seq: number,
    call: { kind: StepCallKind; name: string; input: unknown; status: StepCallStatus },
  ): Promise<StepCall>;
  /** Records what became of it. */
  update(call: StepCall, changes: CallChanges): Promise<StepCall>;
  /** Every call, by seq. */
  all(): readonly StepCall[];
}

const ENDED: readonly StepCallStatus[] = ['success', 'failure', 'denied'];

export const hasEnded = (call: StepCall): boolean => ENDED.includes(call.status);

/** Where the journal's calls belong: the step where it runs in its run; none for a test. */
export interface JournalPlace {
  readonly executionId: string;
  readonly stepKey: string;
  readonly stepId: string;
}

/**
 * A journal over rows already read: persisted in `execution_step_calls` when `store` is given,
 * else kept in memory (a test of the agent from the console, which has no run to hang them on).
 */
export const openJournal = async (
  deps: { readonly clock: Clock; readonly ids: IdGenerator },
  place: JournalPlace,
  store: StepCallRepository | null,
): Promise<CallJournal> => {
  const calls = new Map<number, StepCall>();
  for (const call of store ? await store.listByStep(place.executionId, place.stepKey) : []) calls.set(call.seq, call);

  const write = async (call: StepCall, changes: CallChanges) => {
    const finishedAt = hasEnded({ ...call, ...changes }) ? deps.clock.now() : null;
    let next: StepCall = { ...call, ...changes, finishedAt };
    try {
      await store?.finish(call.id, { ...changes, finishedAt });
    } catch (error) {
      if (!(error instanceof UnstorableTextError)) throw error;
      // What a tool answered holds text the database cannot store: the call failed, said so.
      next = { ...next, status: 'failure', output: null, error: `The answer could not be stored: ${error.message}` };
      await store?.finish(call.id, { ...next, finishedAt });
    }
    calls.set(next.seq, next);
    return next;
  };

  return {
    at: (seq) => calls.get(seq) ?? null,
    async begin(seq, { kind, name, input, status }) {
      const call: StepCall = {
        id: deps.ids.ordered(),
        ...place,
        seq,
        kind,
        name,
        input,
        output: null,
        status,
        error: null,
        usage: null,
        startedAt: deps.clock.now(),
        finishedAt: null,
      };
      if (store && !(await store.insert(call))) {
        // Another turn of the step (a worker that lost its lease) recorded it first: that one stands.
        const again = (await store.listByStep(place.executionId, place.stepKey)).find((c) => c.seq === seq);
        if (again) {
          calls.set(seq, again);
          return again;
        }
      }
      calls.set(seq, call);
      return call;
    },
    update: write,
    all: () => [...calls.values()].sort((a, b) => a.seq - b.seq),
  };
};
