import { type DomainError, type FieldErrors, invalidInput } from './errors.js';
import type { BranchConditions, Parameters, StepType, StructuralType } from './flow.js';
import { rewriteReferences } from './flow-rules.js';
import { canonical, type VersionStep } from './flow-version.js';
import { depthFirst, structureRefusal } from './step-tree.js';

/**
 * A flow as a file a team keeps in git (`conveyor flows export` and `apply`): what a user edits and
 * nothing an instance makes up. No flow, step or connection ids, no webhook address, no
 * credentials, no timestamps or version numbers; steps go by file-local ids, connections and
 * folders by name, the flow by a key unique among its owner's flows. Rendered canonically, so that
 * every instance and database writes a flow's file byte for byte alike.
 */

/** What the file says it is; a reader refuses any other. */
export const FLOW_FILE_FORMAT = 'conveyor-flow/1';
export const FLOW_FILE_SUFFIX = '.flow.json';

/** A key is lowercase (files of two keys never collide on a case-insensitive disk) and path-safe. */
export const FILE_KEY_PATTERN = /^[a-z0-9][a-z0-9_-]*$/;
export const FILE_KEY_MAX_LENGTH = 80;
/** The longest key made from a name, leaving room for a `-<n>` that tells two alike apart. */
const SLUG_MAX_LENGTH = 60;

/** A step's id in its file: what `{{step.<id>.…}}` can hold (no dot, brace or space). */
export const FILE_STEP_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/** A connection as a file names it: its app and the account name the app reported (or none). */
export interface ConnectionRef {
  readonly appKey: string;
  readonly name: string | null;
}

export interface FileStep {
  /** File-local: `step1`, `step2`, ... in order when exported; any distinct ids when written by hand. */
  readonly id: string;
  readonly type: StepType;
  readonly appKey: string | null;
  readonly key: string | null;
  readonly name: string | null;
  readonly parameters: Parameters;
  readonly continueOnFailure: boolean;
  readonly connection: ConnectionRef | null;
  /**
   * Where the step sits in the flow's tree, each only when it is not a top-level single step's
   * (`single`, no parent, no conditions): the file of a flow without paths or loops has none.
   * `parentStepId` is a file-local id.
   */
  readonly structuralType?: StructuralType;
  readonly parentStepId?: string;
  readonly branchConditions?: BranchConditions;
}

/** A file step's place in the tree, with the defaults it leaves out. */
export const treeOfFileStep = (
  step: Pick<FileStep, 'structuralType' | 'parentStepId' | 'branchConditions'>,
): Pick<VersionStep, 'structuralType' | 'parentStepId' | 'branchConditions'> => ({
  structuralType: step.structuralType ?? 'single',
  parentStepId: step.parentStepId ?? null,
  branchConditions: step.branchConditions ?? null,
});

export interface FlowFile {
  readonly format: typeof FLOW_FILE_FORMAT;
  readonly key: string;
  readonly name: string;
  /** Published and running: applying publishes what the file holds. */
  readonly active: boolean;
  /** The owner's folder by name; null for none. */
  readonly folder: string | null;
  /** In order (depth-first: the trigger, then the actions, each followed by the steps inside it). */
  readonly steps: readonly FileStep[];
}

export const flowFileName = (key: string): string => `${key}${FLOW_FILE_SUFFIX}`;

/** The key a file name stands for; null for a file that is no flow file. */
export const keyOfFileName = (fileName: string): string | null =>
  fileName.endsWith(FLOW_FILE_SUFFIX) && fileName.length > FLOW_FILE_SUFFIX.length
    ? fileName.slice(0, -FLOW_FILE_SUFFIX.length)
    : null;

/** A name as a key: lowercase ASCII words joined by dashes ("Orders → Mail (EU)" is `orders-mail-eu`). */
export const slugOf = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/^-+|-+$/g, '') || 'flow';

/** The key of a flow that has none yet: its name's slug, with `-2`, `-3`, ... when that is taken. */
export const newFileKey = (name: string, taken: ReadonlySet<string>): string => {
  const slug = slugOf(name);
  if (!taken.has(slug)) return slug;
  for (let n = 2; ; n += 1) if (!taken.has(`${slug}-${n}`)) return `${slug}-${n}`;
};

/** A step of a flow's draft with its connection named, as export reads it. */
export interface NamedStep
  extends Pick<
    VersionStep,
    | 'id'
    | 'type'
    | 'appKey'
    | 'key'
    | 'name'
    | 'position'
    | 'parameters'
    | 'continueOnFailure'
    | 'structuralType'
    | 'parentStepId'
    | 'branchConditions'
  > {
  readonly connection: ConnectionRef | null;
}

/**
 * The file of a flow: its steps depth-first under ids `step1`, `step2`, ..., each reference to one
 * of them (and each parent) following it (references to anything else stay as they are).
 */
export const flowFileOf = (
  flow: Pick<FlowFile, 'key' | 'name' | 'active' | 'folder'>,
  steps: readonly NamedStep[],
): FlowFile => {
  const ordered = depthFirst(steps);
  const ids = new Map(ordered.map((step, index) => [step.id, `step${index + 1}`] as const));
  return {
    format: FLOW_FILE_FORMAT,
    key: flow.key,
    name: flow.name,
    active: flow.active,
    folder: flow.folder,
    steps: ordered.map((step) => ({
      id: ids.get(step.id) ?? step.id,
      type: step.type,
      appKey: step.appKey,
      key: step.key,
      name: step.name,
      parameters: rewriteReferences(step.parameters, ids),
      continueOnFailure: step.continueOnFailure,
      connection: step.connection,
      ...(step.structuralType !== 'single' && { structuralType: step.structuralType }),
      ...(step.parentStepId !== null && { parentStepId: ids.get(step.parentStepId) ?? step.parentStepId }),
      ...(step.branchConditions !== null && { branchConditions: rewriteReferences(step.branchConditions, ids) }),
    })),
  };
};

/**
 * The file's text: keys sorted at every depth, two spaces, a final newline. A database that
 * reorders a JSON value's keys (Postgres' jsonb) changes nothing of it, and a diff shows only what
 * changed.
 */
export const renderFlowFile = (file: FlowFile): string => `${JSON.stringify(canonical(file), null, 2)}\n`;

/** A step of a file placed in a flow: its real id, parent and position, references following real ids. */
export interface PlacedFileStep
  extends Omit<FileStep, 'id' | 'structuralType' | 'parentStepId' | 'branchConditions'>,
    Pick<VersionStep, 'structuralType' | 'parentStepId' | 'branchConditions'> {
  readonly id: string;
  readonly position: number;
}

/**
 * The file's steps under real ids (`idAt` gives the id of the step at each place, from 0), in the
 * file's order, positions 1..n. The file must have passed `flowFileRefusal`.
 */
export const placeFileSteps = (file: FlowFile, idAt: (index: number) => string): PlacedFileStep[] => {
  const ids = new Map(file.steps.map((step, index) => [step.id, idAt(index)] as const));
  return file.steps.map((step, index) => {
    const tree = treeOfFileStep(step);
    return {
      ...step,
      id: ids.get(step.id) ?? idAt(index),
      position: index + 1,
      parameters: rewriteReferences(step.parameters, ids),
      structuralType: tree.structuralType,
      parentStepId: tree.parentStepId === null ? null : (ids.get(tree.parentStepId) ?? tree.parentStepId),
      branchConditions: tree.branchConditions === null ? null : rewriteReferences(tree.branchConditions, ids),
    };
  });
};

/**
 * What is wrong with a file whatever the instance (the key its name gives, its steps' ids and
 * order, connections of the step's own app), by field; null when nothing is.
 */
export const flowFileRefusal = (fileName: string, file: FlowFile): DomainError | null => {
  const fields: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    fields[field] = [...(fields[field] ?? []), message];
  };
  if (keyOfFileName(fileName) !== file.key) add('key', `must be the file's name without ${FLOW_FILE_SUFFIX}.`);
  if (!FILE_KEY_PATTERN.test(file.key) || file.key.length > FILE_KEY_MAX_LENGTH) {
    add('key', `must be lowercase letters, digits, - and _ (at most ${FILE_KEY_MAX_LENGTH}).`);
  }
  file.steps.forEach((step, index) => {
    const where = `steps.${index}`;
    if (!FILE_STEP_ID_PATTERN.test(step.id)) add(`${where}.id`, 'must be letters, digits, - and _.');
    if (step.connection !== null && step.connection.appKey !== step.appKey) {
      add(`${where}.connection.appKey`, "must be the step's appKey.");
    }
  });
  const index = new Map(file.steps.map((step, at) => [step.id, at] as const));
  const placed = file.steps.map((step, at) => ({ ...step, ...treeOfFileStep(step), position: at + 1 }));
  const shape = structureRefusal(placed, (problem) => `steps.${index.get(problem.stepId ?? '')}.${problem.field}`);
  if (shape?.code === 'input.invalid') {
    for (const [field, list] of Object.entries(shape.fields)) for (const message of list) add(field, message);
  }
  // A file lists steps as its flow shows them: each followed by the steps inside it.
  if (!shape && depthFirst(placed).some((step, at) => step.position !== at + 1)) {
    add('steps', 'must list each step right after the step it sits in (and after its earlier siblings).');
  }
  const type = shape?.code === 'input.invalid' ? shape.type : undefined;
  return Object.keys(fields).length > 0 ? invalidInput(fields as FieldErrors, type) : null;
};
