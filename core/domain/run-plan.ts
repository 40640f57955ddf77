import type { RecordPlace } from './execution.js';
import type { BranchConditions, Step } from './flow.js';
import { type PathsMode, pathsMode } from './step-tree.js';

/**
 * The shape a run walks: a flow's steps as a tree. A paths step holds branches, a branch and a loop
 * hold nodes; the trigger is not a node (it is the run's first record).
 */
export interface StepNode {
  readonly kind: 'step';
  readonly stepId: string;
  /** The run goes on past this step's failure; later steps see no output of it. */
  readonly continueOnFailure: boolean;
}

export interface BranchNode {
  readonly stepId: string;
  readonly conditions: BranchConditions;
  readonly nodes: readonly PlanNode[];
}

export interface PathsNode {
  readonly kind: 'paths';
  readonly stepId: string;
  readonly continueOnFailure: boolean;
  readonly mode: PathsMode;
  readonly branches: readonly BranchNode[];
}

export interface LoopNode {
  readonly kind: 'loop';
  readonly stepId: string;
  readonly continueOnFailure: boolean;
  readonly nodes: readonly PlanNode[];
}

export type PlanNode = StepNode | PathsNode | LoopNode;

export interface RunPlan {
  /** The trigger's step: the run's first record, which later steps read. */
  readonly triggerId: string | null;
  readonly nodes: readonly PlanNode[];
  /** Where each node's step sits: its parent and the branch it is in (for records). */
  readonly places: ReadonlyMap<string, { readonly parentStepId: string | null; readonly branchId: string | null }>;
  /** The loop steps' ids. */
  readonly loops: ReadonlySet<string>;
}

const byPosition = (a: Step, b: Step) => a.position - b.position || a.id.localeCompare(b.id);

/**
 * A flow's steps (flow-wide positions, each with its parent) as the tree its runs walk. A step whose
 * parent is missing, or that sits where it may not (a branch outside paths), is never reached:
 * publishing refuses such a tree, and a test run walks what it can.
 */
export const planOf = (steps: readonly Step[]): RunPlan => {
  const children = new Map<string | null, Step[]>();
  for (const step of [...steps].sort(byPosition)) {
    if (step.type === 'trigger') continue;
    const siblings = children.get(step.parentStepId) ?? [];
    siblings.push(step);
    children.set(step.parentStepId, siblings);
  }
  const places = new Map<string, { parentStepId: string | null; branchId: string | null }>();
  const loops = new Set<string>();
  const nodesUnder = (parentId: string | null, branchId: string | null, seen: ReadonlySet<string>): PlanNode[] =>
    (children.get(parentId) ?? []).flatMap((step): PlanNode[] => {
      // A cycle of parents (a broken draft) is walked once.
      if (seen.has(step.id) || step.structuralType === 'branch') return [];
      const inside = new Set(seen).add(step.id);
      places.set(step.id, { parentStepId: parentId, branchId });
      const { id: stepId, continueOnFailure } = step;
      if (step.structuralType === 'paths') {
        const branches = (children.get(step.id) ?? [])
          .filter((child) => child.structuralType === 'branch' && !inside.has(child.id))
          .map((branch): BranchNode => {
            places.set(branch.id, { parentStepId: step.id, branchId });
            return {
              stepId: branch.id,
              conditions: branch.branchConditions ?? [],
              nodes: nodesUnder(branch.id, branch.id, new Set(inside).add(branch.id)),
            };
          });
        return [{ kind: 'paths', stepId, continueOnFailure, mode: pathsMode(step.parameters), branches }];
      }
      if (step.structuralType === 'loop') {
        loops.add(step.id);
        return [{ kind: 'loop', stepId, continueOnFailure, nodes: nodesUnder(step.id, branchId, inside) }];
      }
      return [{ kind: 'step', stepId, continueOnFailure }];
    });
  return {
    triggerId: steps.find((step) => step.type === 'trigger')?.id ?? null,
    nodes: nodesUnder(null, null, new Set()),
    places,
    loops,
  };
};

/** One loop iteration a step runs in. */
export interface Iteration {
  readonly loopId: string;
  readonly index: number;
}

/** The iterations, outermost first, as a record's `scope` spells them: `<loopId>:<index>/...`. */
export const scopeKey = (iterations: readonly Iteration[]): string =>
  iterations.map(({ loopId, index }) => `${loopId}:${index}`).join('/');

export const iterationsOf = (scope: string): Iteration[] =>
  scope === ''
    ? []
    : scope.split('/').map((segment) => {
        const at = segment.lastIndexOf(':');
        return { loopId: segment.slice(0, at), index: Number(segment.slice(at + 1)) };
      });

/** Whether a record made in `inner` can be seen from `outer`'s steps: made there or further out. */
export const encloses = (outer: string, inner: string): boolean =>
  inner === '' || inner === outer || outer.startsWith(`${inner}/`);

/** Where a step's record goes, given where the plan has the step and the iterations it ran in. */
export const placeOf = (plan: RunPlan, stepId: string, scope: string): RecordPlace => {
  const iterations = iterationsOf(scope);
  const place = plan.places.get(stepId);
  return {
    scope,
    parentStepId: place?.parentStepId ?? null,
    branchId: place?.branchId ?? null,
    iteration: iterations.at(-1)?.index ?? null,
  };
};

/** The key naming one step where it runs (its id and its iterations), for what it keeps between turns. */
export const stepKeyOf = (stepId: string, scope: string): string => `${stepId}@${scope}`;
