import { expect } from 'vitest';
import { rawQuery } from '../support/raw-sql.js';
import type { Sink } from './sink.js';
import type { Ledger } from './webhooks.js';

interface Run {
  readonly executionId: string;
  readonly status: string;
  /** The id the suite gave what started it: a webhook's `body.id`, a message's `content.id`. */
  readonly webhookId: string;
}

/** Where the suite's id is in a trigger's output: a webhook's body, or a queue message's content. */
export type IdOf = (triggerOutput: any) => unknown;

const webhookBodyId: IdOf = (out) => out?.body?.id;

/** Every execution of the flow, with the id its trigger step recorded. */
const readRuns = async (databaseUrl: string, flowId: string, triggerId: string, idOf: IdOf): Promise<Run[]> => {
  const rows = await rawQuery(
    databaseUrl,
    `select e.id, e.status, s.data_out from executions e
     left join execution_steps s on s.execution_id = e.id and s.step_id = ?
     where e.flow_id = ?`,
    [triggerId, flowId],
  );
  return rows.map((row) => {
    const out = typeof row.data_out === 'string' ? JSON.parse(row.data_out) : row.data_out;
    return { executionId: row.id, status: row.status, webhookId: String(idOf(out)) };
  });
};

export interface CrashTally {
  readonly executions: number;
  /** Executions not (yet) finished as a success. */
  readonly unsuccessful: readonly Run[];
  /** Acknowledged webhooks without a successful execution, or whose effect never reached the sink. */
  readonly lost: readonly string[];
  /** Webhooks (acknowledged or not) with more than one execution. */
  readonly duplicateExecutions: readonly string[];
  /** Webhooks whose effect reached the sink under more than one idempotency key. */
  readonly duplicateEffects: readonly string[];
  /** Deliveries that repeated a key already seen: the at-least-once retries a receiver deduplicates. */
  readonly redeliveries: number;
  /** Deliveries whose key is not `<executionId>:<actionId>` of the webhook's execution, or that had none. */
  readonly foreignKeys: number;
  /** Webhooks that were not acknowledged (the process died first) but ran anyway: allowed. */
  readonly unacknowledgedRun: number;
}

export const tally = async (options: {
  readonly databaseUrl: string;
  readonly flowId: string;
  readonly triggerId: string;
  readonly actionId: string;
  readonly ledger: Ledger;
  readonly sink: Sink;
  /** Where the id is in the trigger's output (a webhook's `body.id` unless told). */
  readonly idOf?: IdOf;
}): Promise<CrashTally> => {
  const { ledger, sink } = options;
  const runs = await readRuns(options.databaseUrl, options.flowId, options.triggerId, options.idOf ?? webhookBodyId);
  const runsById = new Map<string, Run[]>();
  for (const run of runs) runsById.set(run.webhookId, [...(runsById.get(run.webhookId) ?? []), run]);

  const lost = [...ledger.acknowledged].filter((id) => {
    const ran = runsById.get(id) ?? [];
    return !ran.some((run) => run.status === 'success') || !sink.keysById.has(id);
  });
  const duplicateExecutions = [...runsById].filter(([, ran]) => ran.length > 1).map(([id]) => id);
  const duplicateEffects = [...sink.keysById].filter(([, keys]) => keys.size > 1).map(([id]) => id);
  let redeliveries = 0;
  let foreignKeys = sink.withoutKey();
  for (const [key, { id, count }] of sink.byKey) {
    redeliveries += count - 1;
    const expected = (runsById.get(id) ?? []).map((run) => `${run.executionId}:${options.actionId}`);
    if (!expected.includes(key)) foreignKeys += count;
  }
  return {
    executions: runs.length,
    unsuccessful: runs.filter((run) => run.status !== 'success'),
    lost,
    duplicateExecutions,
    duplicateEffects,
    redeliveries,
    foreignKeys,
    unacknowledgedRun: [...runsById.keys()].filter((id) => !ledger.acknowledged.has(id)).length,
  };
};

/** True once every run has finished and every acknowledged webhook has a run and an effect. */
export const settled = (t: CrashTally) =>
  t.unsuccessful.every((run) => run.status === 'failure') && t.lost.length === 0;

/** The tally's figures for a case's report line. */
export const tallyFigures = (t: CrashTally) => ({
  executions: t.executions,
  lost: t.lost.length,
  'duplicate executions': t.duplicateExecutions.length,
  'duplicate effects': t.duplicateEffects.length,
  'redeliveries with the same key': t.redeliveries,
  'deliveries with a wrong or no key': t.foreignKeys,
  'unfinished or failed executions': t.unsuccessful.length,
});

/** Fails unless every acknowledged id ran once, as a success, its one effect under its own run's key. */
export const expectExactlyOnce = (t: CrashTally) => {
  expect(t.lost.slice(0, 20)).toEqual([]);
  expect(t.duplicateExecutions.slice(0, 20)).toEqual([]);
  expect(t.duplicateEffects.slice(0, 20)).toEqual([]);
  expect(t.unsuccessful.slice(0, 20)).toEqual([]);
  expect(t.foreignKeys).toBe(0);
};
