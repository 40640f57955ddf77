/** Which version of a flow: the one it runs, or the one a run ran (see flow-version.ts). */
export interface VersionRef {
  readonly id: string;
  readonly number: number;
}

/** A user's automation: one trigger step, then actions, run in order of position. */
export interface Flow {
  readonly id: string;
  /** The owner: the permission condition `isCreator` compares against this. */
  readonly userId: string;
  readonly folderId: string | null;
  readonly name: string;
  /** Published: the engine runs it. */
  readonly active: boolean;
  readonly publishedAt: Date | null;
  /** The version the engine runs while the flow is active; null until it is first published. */
  readonly publishedVersion: VersionRef | null;
  /** The draft (its steps and name as edited) differs from the published version, or none is. */
  readonly hasDraftChanges: boolean;
  /** Grows with every change of the draft: a write based on an older one is refused. */
  readonly draftRevision: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** `paused`: active, but its owner may not run flows now (over the plan's quota). */
export type FlowStatus = 'draft' | 'published' | 'paused';

export const flowStatus = (flow: Pick<Flow, 'active'> & { readonly paused: boolean }): FlowStatus =>
  !flow.active ? 'draft' : flow.paused ? 'paused' : 'published';

/** The longest name of a flow or a step (and of a folder or a template). */
export const NAME_MAX_LENGTH = 255;
/** The longest app key or trigger or action key. */
export const KEY_MAX_LENGTH = 100;

export type StepType = 'trigger' | 'action';
/**
 * Where a step sits in the flow's tree: an ordinary step (`single`), a `paths` step whose children
 * are its `branch`es, or a `loop` whose children run once per item. Branches and loops hold
 * ordinary steps and may nest paths and loops (see step-tree.ts).
 */
export type StructuralType = 'single' | 'paths' | 'branch' | 'loop';
export const STRUCTURAL_TYPES: readonly StructuralType[] = ['single', 'paths', 'branch', 'loop'];

/**
 * One condition of a branch, as stored: text (a variable, say) compared by one of the filter app's
 * operators (core/domain/conditions.ts, which evaluates it; step-tree.ts checks the operator).
 */
export interface Condition {
  readonly key: string;
  readonly operator: string;
  readonly value: string;
}
/** Groups of conditions: the branch is taken when every condition of any group holds. Empty: the fallback. */
export type BranchConditions = ReadonlyArray<{ readonly and: readonly Condition[] }>;
export type StepStatus = 'incomplete' | 'completed';

export type Parameters = Readonly<Record<string, unknown>>;

export interface Step {
  readonly id: string;
  readonly flowId: string;
  readonly type: StepType;
  /** Null while the user has not chosen an app yet. */
  readonly appKey: string | null;
  /** The trigger or action key within the app. */
  readonly key: string | null;
  readonly name: string | null;
  /** 1-based and flow-wide, depth-first (a step's children follow it); the trigger is 1. */
  readonly position: number;
  readonly status: StepStatus;
  readonly parameters: Parameters;
  readonly connectionId: string | null;
  /**
   * The app's definition version the step was last edited against, so that a later change of the
   * app's arguments can be told apart from a step that was built for it.
   */
  readonly appVersion: number | null;
  /** A failure of this step is recorded and the run goes on with the next step. */
  readonly continueOnFailure: boolean;
  readonly structuralType: StructuralType;
  /** The paths, branch or loop step it sits in; null at the top level. */
  readonly parentStepId: string | null;
  /** A branch's conditions (empty: the fallback); null for every other step. */
  readonly branchConditions: BranchConditions | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What a step is made of, apart from where it lives and when it was written. */
export type StepDefinition = Pick<Step, 'type' | 'appKey' | 'key' | 'name' | 'parameters' | 'connectionId'>;

/** A named group of a user's flows. */
export interface Folder {
  readonly id: string;
  readonly userId: string;
  readonly name: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** The name a new flow starts with, as the editor shows it until the user names it. */
export const NEW_FLOW_NAME = 'Name your flow';

export const copyName = (name: string): string => `Copy of ${name}`;
