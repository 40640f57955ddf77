import type { Step, VersionRef } from './flow.js';

/**
 * Every publish of a flow stores what it runs as an immutable version; the flow's steps as users
 * edit them are its draft. The engine runs a published flow's version, never its draft, so that
 * editing never changes a live flow until it is published again.
 */

/** A step as a version holds it: its definition and place, nothing of when it was edited. */
export type VersionStep = Omit<Step, 'flowId' | 'createdAt' | 'updatedAt'>;

/** What a version is a copy of, and what a draft is compared with. */
export interface FlowContent {
  readonly name: string;
  /** By position. */
  readonly steps: readonly VersionStep[];
}

export interface FlowVersionSummary extends VersionRef {
  readonly flowId: string;
  readonly message: string | null;
  /** The user who published it (null once nobody is known, e.g. applied by the system). */
  readonly publishedBy: string | null;
  readonly createdAt: Date;
}

export interface FlowVersion extends FlowVersionSummary, FlowContent {}

/** The longest message a publish may carry. */
export const VERSION_MESSAGE_MAX_LENGTH = 1000;

export const versionStepOf = (step: Step): VersionStep => ({
  id: step.id,
  type: step.type,
  appKey: step.appKey,
  key: step.key,
  name: step.name,
  position: step.position,
  status: step.status,
  parameters: step.parameters,
  connectionId: step.connectionId,
  appVersion: step.appVersion,
  continueOnFailure: step.continueOnFailure,
  structuralType: step.structuralType,
  parentStepId: step.parentStepId,
  branchConditions: step.branchConditions,
});

/** A step as stored in a version; versions stored before flows had structure hold straight lines. */
export const storedVersionStep = (
  step: Omit<VersionStep, 'structuralType' | 'parentStepId' | 'branchConditions'> & Partial<VersionStep>,
): VersionStep => ({
  ...step,
  structuralType: step.structuralType ?? 'single',
  parentStepId: step.parentStepId ?? null,
  branchConditions: step.branchConditions ?? null,
});

/** The draft's content: its name and its steps by position. */
export const contentOf = (name: string, steps: readonly Step[]): FlowContent => ({
  name,
  steps: [...steps].sort((a, b) => a.position - b.position || a.id.localeCompare(b.id)).map(versionStepOf),
});

/** A version's steps as the engine runs them (they were last written when the version was made). */
export const stepsOfVersion = (version: Pick<FlowVersion, 'flowId' | 'steps' | 'createdAt'>): Step[] =>
  version.steps.map((step) => ({
    ...step,
    flowId: version.flowId,
    createdAt: version.createdAt,
    updatedAt: version.createdAt,
  }));

/**
 * The value with every object's keys in one order, at any depth: two equal values print the
 * same, whatever order a database (Postgres' jsonb) or an editor gave their keys.
 */
export const canonical = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
};

const same = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** What a step's content is made of; its status follows from it and the app, so it is not compared. */
const COMPARED = [
  'type',
  'appKey',
  'key',
  'name',
  'position',
  'connectionId',
  'continueOnFailure',
  'structuralType',
  'parentStepId',
  'branchConditions',
] as const;

export interface StepChange {
  readonly stepId: string;
  /** The step's name, else its app and key, as the newer side has it. */
  readonly label: string;
  /** `appKey`, `parameters.<key>`, ...: what differs. */
  readonly fields: readonly string[];
}

export interface ContentChanges {
  readonly name: { readonly from: string; readonly to: string } | null;
  readonly added: readonly StepChange[];
  readonly removed: readonly StepChange[];
  readonly changed: readonly StepChange[];
}

const labelOf = (step: VersionStep): string =>
  step.name ?? ([step.appKey, step.key].filter((part) => part !== null).join(' · ') || `Step ${step.position}`);

/** The fields in which two versions of a step differ; parameters one by one. */
const stepFields = (from: VersionStep, to: VersionStep): string[] => {
  const fields: string[] = COMPARED.filter((field) => !same(from[field], to[field]));
  const keys = [...new Set([...Object.keys(from.parameters), ...Object.keys(to.parameters)])].sort();
  for (const key of keys) if (!same(from.parameters[key], to.parameters[key])) fields.push(`parameters.${key}`);
  return fields;
};

/** Which steps were added, removed or changed (and in which fields) from one content to another. */
export const compareContents = (from: FlowContent, to: FlowContent): ContentChanges => {
  const before = new Map(from.steps.map((step) => [step.id, step]));
  const after = new Map(to.steps.map((step) => [step.id, step]));
  const entry = (step: VersionStep, fields: readonly string[] = []): StepChange => ({
    stepId: step.id,
    label: labelOf(step),
    fields,
  });
  return {
    name: from.name === to.name ? null : { from: from.name, to: to.name },
    added: to.steps.filter((step) => !before.has(step.id)).map((step) => entry(step)),
    removed: from.steps.filter((step) => !after.has(step.id)).map((step) => entry(step)),
    changed: to.steps.flatMap((step) => {
      const old = before.get(step.id);
      const fields = old ? stepFields(old, step) : [];
      return fields.length > 0 ? [entry(step, fields)] : [];
    }),
  };
};

/** Whether any step was added, removed or changed. */
export const stepsChanged = (changes: ContentChanges): boolean =>
  changes.added.length + changes.removed.length + changes.changed.length > 0;

/** Whether the content differs from the version: nothing published yet counts as a difference. */
export const differs = (draft: FlowContent, version: FlowContent | null): boolean => {
  if (version === null) return true;
  const changes = compareContents(version, draft);
  return changes.name !== null || stepsChanged(changes);
};
