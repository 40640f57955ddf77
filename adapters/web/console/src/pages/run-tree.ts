import type { Execution, ExecutionStep, Step } from '../types';
import { childrenOf, isFallback, structuralTypeOf } from './step-tree';

/**
 * An execution's records as the tree its flow is. Each record says where it ran: `parentStepId`
 * (the branch or loop it sits in directly), `scope` (its loop iterations, `<loopId>:<index>/…`),
 * so a list of the tree is the records of one parent in one scope. A paths step's record says
 * which branches it took (`{ mode, taken }`); the flow's steps name the branches it did not take.
 * Records of servers before flows were trees have neither: they form the top level, in order.
 */

export interface BranchRun {
  readonly id: string;
  readonly name: string;
  readonly taken: boolean;
  readonly fallback: boolean;
  readonly list: RunList;
}

export interface IterationRun {
  /** From 0, as `{{step.<loopId>.index}}` gives it. */
  readonly index: number;
  readonly list: RunList;
}

export interface RunNode {
  readonly record: ExecutionStep;
  /** A paths step's branches, taken or not, in the flow's order. */
  readonly branches?: readonly BranchRun[];
  /** A loop's iterations that have records. */
  readonly iterations?: readonly IterationRun[];
  /** How many items a loop's record says it went through. */
  readonly itemCount?: number;
}

export interface RunList {
  readonly nodes: readonly RunNode[];
  /** The step a waiting run waits at (or a running run runs now), when it is the next of this list. */
  readonly waiting: Step | null;
}

export interface RunTree extends RunList {
  /** Records the tree has no place for (their parent's record is gone): shown after it. */
  readonly others: readonly ExecutionStep[];
}

const scopeOf = (record: ExecutionStep) => record.scope ?? '';
const within = (scope: string, loopId: string, index: number) => `${scope === '' ? '' : `${scope}/`}${loopId}:${index}`;

const objectOf = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The branches a paths step's record says it took. */
const takenOf = (record: ExecutionStep): Array<{ id: string; name: string | null }> => {
  const taken = objectOf(record.dataOut).taken;
  return Array.isArray(taken)
    ? taken.flatMap((t) => {
        const { id, name } = objectOf(t);
        return typeof id === 'string' ? [{ id, name: typeof name === 'string' ? name : null }] : [];
      })
    : [];
};

const isPaths = (record: ExecutionStep) =>
  (record.step ? structuralTypeOf(record.step) === 'paths' : false) || Array.isArray(objectOf(record.dataOut).taken);

/** The iterations of a loop at a scope that have records, and the count its record gives. */
const iterationIndexes = (records: readonly ExecutionStep[], loopId: string, scope: string): number[] => {
  const prefix = `${scope === '' ? '' : `${scope}/`}${loopId}:`;
  const indexes = new Set<number>();
  for (const record of records) {
    const at = scopeOf(record);
    if (!at.startsWith(prefix)) continue;
    const index = Number(at.slice(prefix.length).split('/')[0]);
    if (Number.isInteger(index)) indexes.add(index);
  }
  return [...indexes].sort((a, b) => a - b);
};

const countOf = (record: ExecutionStep): number | undefined => {
  const count = objectOf(record.dataOut).count;
  return typeof count === 'number' ? count : undefined;
};

export const buildRunTree = (execution: Execution): RunTree => {
  const records = execution.steps ?? [];
  const steps = execution.flow.steps;
  const placed = new Set<string>();
  const recordOf = (stepId: string, scope: string) => records.find((r) => r.stepId === stepId && scopeOf(r) === scope);

  /** Where a waiting run stands: the first step of the walk that has no record yet. */
  const waitingAt = (
    parentId: string | null,
    scope: string,
  ): { parentId: string | null; scope: string; step: Step } | null => {
    for (const step of childrenOf(steps, parentId)) {
      if (step.type === 'trigger') continue;
      const record = recordOf(step.id, scope);
      if (!record) return { parentId, scope, step };
      const type = structuralTypeOf(step);
      if (type === 'paths') {
        for (const branch of takenOf(record)) {
          const found = waitingAt(branch.id, scope);
          if (found) return found;
        }
      } else if (type === 'loop') {
        const indexes = iterationIndexes(records, step.id, scope);
        const last = indexes.at(-1) ?? -1;
        const found =
          (last >= 0 ? waitingAt(step.id, within(scope, step.id, last)) : null) ??
          (last + 1 < (countOf(record) ?? 0) ? waitingAt(step.id, within(scope, step.id, last + 1)) : null);
        if (found) return found;
      }
    }
    return null;
  };
  // A running run is at the same place: the step being run (or queued for a worker) has no record yet.
  const unfinished = execution.status === 'waiting' || execution.status === 'running';
  const waiting = unfinished ? waitingAt(null, '') : null;

  const listOf = (parentId: string | null, scope: string): RunList => {
    const nodes = records
      .filter((r) => (r.parentStepId ?? null) === parentId && scopeOf(r) === scope && !placed.has(r.id))
      .map((record) => {
        placed.add(record.id);
        return nodeOf(record, scope);
      });
    const here = waiting && waiting.parentId === parentId && waiting.scope === scope ? waiting.step : null;
    return { nodes, waiting: here };
  };

  const nodeOf = (record: ExecutionStep, scope: string): RunNode => {
    if (isPaths(record)) {
      const taken = takenOf(record);
      const inFlow = childrenOf(steps, record.stepId).filter((s) => structuralTypeOf(s) === 'branch');
      const gone = taken.filter((t) => !inFlow.some((s) => s.id === t.id));
      const branches = [
        ...inFlow.map((s) => ({ id: s.id, name: s.name, fallback: isFallback(s) })),
        ...gone.map((t) => ({ id: t.id, name: t.name, fallback: false })),
      ].map((branch, index) => {
        const list = listOf(branch.id, scope);
        return {
          id: branch.id,
          name: branch.name ?? `Branch ${index + 1}`,
          fallback: branch.fallback,
          taken: taken.some((t) => t.id === branch.id) || list.nodes.length > 0,
          list,
        };
      });
      return { record, branches };
    }
    const indexes = iterationIndexes(records, record.stepId, scope);
    const itemCount = countOf(record);
    if (indexes.length === 0 && (record.step ? structuralTypeOf(record.step) !== 'loop' : itemCount === undefined)) {
      return { record };
    }
    const iterations = indexes.map((index) => ({
      index,
      list: listOf(record.stepId, within(scope, record.stepId, index)),
    }));
    // A waiting run may wait at the first step of an iteration that has no record yet.
    if (waiting && waiting.parentId === record.stepId && !iterations.some((i) => i.list.waiting)) {
      const [, index] = /:(\d+)$/.exec(waiting.scope) ?? [];
      if (index !== undefined && waiting.scope === within(scope, record.stepId, Number(index))) {
        iterations.push({ index: Number(index), list: { nodes: [], waiting: waiting.step } });
      }
    }
    return { record, iterations, ...(itemCount !== undefined && { itemCount }) };
  };

  const top = listOf(null, '');
  return { ...top, others: records.filter((r) => !placed.has(r.id)) };
};

/** What a waiting step waits for, from its app and action (the wait and flows apps). */
export const waitingFor = (step: Step): string => {
  switch (`${step.appKey}.${step.key}`) {
    case 'wait.waitForWebhook':
      return 'Waiting for a request';
    case 'wait.waitForApproval':
      return 'Waiting for an approval';
    case 'wait.waitForForm':
      return 'Waiting for a form';
    case 'flows.callFlow':
      return 'Waiting for the called flow';
    case 'agents.runAgent':
      return 'Waiting for a tool call’s approval';
    default:
      return 'Waiting to run';
  }
};

/** The run a "Call a flow" step started, from its record's output. */
export const calledRunOf = (record: ExecutionStep): string | null => {
  if (record.step?.appKey !== 'flows' || record.step.key !== 'callFlow') return null;
  const id = objectOf(record.dataOut).executionId;
  return typeof id === 'string' ? id : null;
};
