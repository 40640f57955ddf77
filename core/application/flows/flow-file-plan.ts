import type { Repositories } from '../../../ports/repositories.js';
import type { Actor } from '../../domain/actor.js';
import { needsConnection } from '../../domain/app.js';
import type { Connection } from '../../domain/connection.js';
import { errorMessages } from '../../domain/error-messages.js';
import type { FieldErrors } from '../../domain/errors.js';
import type { Flow, Step } from '../../domain/flow.js';
import {
  type ConnectionRef,
  type FlowFile,
  flowFileRefusal,
  type PlacedFileStep,
  placeFileSteps,
} from '../../domain/flow-file.js';
import { publishRefusal } from '../../domain/flow-rules.js';
import {
  compareContents,
  contentOf,
  differs,
  type FlowContent,
  stepsChanged,
  type VersionStep,
} from '../../domain/flow-version.js';
import { authorize } from '../../policy/authorize.js';
import type { CoreDeps } from '../deps.js';
import { appVersionOf, evaluateStep, unknownAppOrKey } from '../steps/step-status.js';

/** A flow file as read from its folder. */
export interface FlowFileInput {
  readonly fileName: string;
  readonly file: FlowFile;
}

/** What of a flow a file changes. */
export type FlowPart = 'name' | 'steps' | 'folder';

/** What applying one file does (or, on a dry run, would do). */
export interface FilePlan {
  readonly input: FlowFileInput;
  /** The flow with the file's key; null: one is created. */
  readonly flow: Flow | null;
  /** The draft the file makes: steps under the ids of the draft's steps at their places. */
  readonly content: FlowContent;
  /** The folder by name; `id` null while it is still to create. */
  readonly folder: { readonly name: string; readonly id: string | null } | null;
  readonly changes: readonly FlowPart[];
  /** The flow is published: as a new version, or its published version runs again (`created` false). */
  readonly publish: { readonly version: number; readonly created: boolean } | null;
  readonly deactivate: boolean;
}

export interface FlowFilesPlan {
  readonly plans: FilePlan[];
  /** Why some files cannot be applied, by `<file>: <field>`; null when all can. */
  readonly errors: FieldErrors | null;
  /** The owner's flows no file names: applying leaves them as they are. */
  readonly leftAlone: ReadonlyArray<{ readonly flowId: string; readonly name: string; readonly key: string | null }>;
}

type Deps = Pick<CoreDeps, 'apps' | 'ids'>;

/** The caller's connections of each app, looked up once. */
const connectionFinder = (repos: Repositories, ownerId: string) => {
  const byApp = new Map<string, Promise<Connection[]>>();
  return (appKey: string) => {
    let found = byApp.get(appKey);
    if (!found) {
      found = repos.connections.listByApp(appKey, { ownerId, drafts: true });
      byApp.set(appKey, found);
    }
    return found;
  };
};

/**
 * The connection a file names for a step: the one the step has already, when it answers to the
 * name; else the caller's one connection of the app with that name (a verified one before others).
 * Anything else is a refusal: the file cannot say which connection it means.
 */
const resolveConnection = (
  candidates: readonly Connection[],
  ref: ConnectionRef,
  current: string | null,
): { readonly id: string } | { readonly problem: string } => {
  const named = candidates.filter((c) => c.screenName === ref.name);
  const label =
    ref.name === null ? `${ref.appKey} connection without a name` : `${ref.appKey} connection named "${ref.name}"`;
  if (named.length === 0) return { problem: `names no ${label} of the user.` };
  const kept = named.find((c) => c.id === current);
  if (kept) return { id: kept.id };
  const verified = named.filter((c) => c.verified);
  const pick = verified.length > 0 ? verified : named;
  if (pick.length > 1) return { problem: `names ${pick.length} ${label}s of the user: keep one of them.` };
  return { id: (pick[0] as Connection).id };
};

/** The refusals of one file, each field prefixed with the file's name. */
const fileErrors = (fileName: string, fields: FieldErrors): Array<[string, readonly string[]]> =>
  Object.entries(fields).map(([field, messages]) => [
    field === 'general' ? `${fileName}:` : `${fileName}: ${field}`,
    messages,
  ]);

/** What a plan looks up once for all the files: the owner's flows by key, folders, connections. */
interface Lookups {
  readonly repos: Repositories;
  readonly deps: Deps;
  readonly flows: ReadonlyMap<string, Flow>;
  readonly folders: ReadonlyMap<string, string>;
  readonly connectionsOf: (appKey: string) => Promise<Connection[]>;
  readonly mayUseConnections: boolean;
}

/** Field errors gathered one message at a time. */
const problemList = () => {
  const fields: Record<string, string[]> = {};
  return {
    fields: fields as FieldErrors,
    add(field: string, message: string) {
      fields[field] = [...(fields[field] ?? []), message];
    },
    any: () => Object.keys(fields).length > 0,
  };
};

/** The connection of a placed step, or null for none; what keeps it from having one goes to `refuse`. */
const connectionOfStep = async (
  lookups: Lookups,
  step: PlacedFileStep,
  current: string | null,
  refuse: (message: string) => void,
): Promise<string | null> => {
  const app = step.appKey === null ? undefined : lookups.deps.apps.find(step.appKey);
  if (step.connection === null || !app) return null;
  if (!needsConnection(app)) refuse("is not used by this step's app.");
  else if (!lookups.mayUseConnections) refuse('cannot be used: you may not read connections.');
  else {
    const resolved = resolveConnection(await lookups.connectionsOf(app.key), step.connection, current);
    if ('id' in resolved) return resolved.id;
    refuse(resolved.problem);
  }
  return null;
};

/**
 * The file's steps as the flow's draft would hold them: under the ids of the draft's steps at
 * their places (new ones for steps beyond), with connections found and statuses worked out.
 */
const stepsOfFile = async (
  lookups: Lookups,
  file: FlowFile,
  draft: readonly Step[],
  problems: ReturnType<typeof problemList>,
): Promise<VersionStep[]> => {
  const { apps, ids } = lookups.deps;
  const steps: VersionStep[] = [];
  for (const [index, step] of placeFileSteps(file, (at) => draft[at]?.id ?? ids.next()).entries()) {
    for (const [field, messages] of Object.entries(unknownAppOrKey(apps, step) ?? {})) {
      for (const message of messages) problems.add(`steps.${index}.${field}`, message);
    }
    const connectionId = await connectionOfStep(lookups, step, draft[index]?.connectionId ?? null, (message) =>
      problems.add(`steps.${index}.connection`, message),
    );
    const { connection: _named, ...definition } = { ...step, connectionId };
    steps.push({
      ...definition,
      status: evaluateStep(apps, definition),
      appVersion: appVersionOf(apps, step.appKey),
    });
  }
  return steps;
};

/** One file's plan, or its refusals by field. */
const planFile = async (
  lookups: Lookups,
  input: FlowFileInput,
): Promise<{ readonly plan: FilePlan } | { readonly refused: FieldErrors }> => {
  const { fileName, file } = input;
  const refusal = flowFileRefusal(fileName, file);
  if (refusal) return { refused: errorMessages(refusal) };
  const flow = lookups.flows.get(file.key) ?? null;
  const problems = problemList();
  const draft = flow ? await lookups.repos.steps.listByFlow(flow.id) : [];
  const steps = await stepsOfFile(lookups, file, draft, problems);
  const unpublishable = file.active && !problems.any() ? publishRefusal(steps) : null;
  if (unpublishable) for (const message of errorMessages(unpublishable).general ?? []) problems.add('general', message);
  if (problems.any()) return { refused: problems.fields };
  const content: FlowContent = { name: file.name, steps };
  const folder = file.folder === null ? null : { name: file.folder, id: lookups.folders.get(file.folder) ?? null };
  const current = flow ? contentOf(flow.name, draft) : null;
  const decided = await decide(lookups.repos, flow, current, content, folder?.id ?? null, file);
  return { plan: { input, flow, content, folder, ...decided } };
};

/**
 * What applying the files does, flow by flow, or every reason some cannot be applied: nothing is
 * changed unless all of them can. Reads only; `repos` may be a unit of work's.
 */
export const planFlowFiles = async (
  repos: Repositories,
  deps: Deps,
  actor: Actor,
  inputs: readonly FlowFileInput[],
): Promise<FlowFilesPlan> => {
  const ownerId = actor.user.id;
  const owned = await repos.flows.listWithFileKeys(ownerId);
  const lookups: Lookups = {
    repos,
    deps,
    flows: new Map(owned.flatMap(({ flow, fileKey }) => (fileKey === null ? [] : [[fileKey, flow] as const]))),
    folders: new Map((await repos.folders.listByUser(ownerId)).map((f) => [f.name, f.id])),
    connectionsOf: connectionFinder(repos, ownerId),
    mayUseConnections: authorize(actor, 'read', 'Connection', { ownerId }) === null,
  };
  const errors: Array<[string, readonly string[]]> = [];
  const plans: FilePlan[] = [];
  const keys = new Set<string>();
  for (const input of inputs) {
    const planned = keys.has(input.file.key)
      ? { refused: { key: ['is the key of another file too.'] } }
      : await planFile(lookups, input);
    keys.add(input.file.key);
    if ('plan' in planned) plans.push(planned.plan);
    else errors.push(...fileErrors(input.fileName, planned.refused));
  }
  return {
    plans,
    errors: errors.length > 0 ? Object.fromEntries(errors) : null,
    leftAlone: owned.flatMap(({ flow, fileKey }) =>
      fileKey !== null && keys.has(fileKey) ? [] : [{ flowId: flow.id, name: flow.name, key: fileKey }],
    ),
  };
};

/** What differs between the flow and the file, and whether it is published or stopped. */
const decide = async (
  repos: Repositories,
  flow: Flow | null,
  /** The flow's draft as it is. */
  current: FlowContent | null,
  content: FlowContent,
  folderId: string | null,
  file: FlowFile,
): Promise<Pick<FilePlan, 'changes' | 'publish' | 'deactivate'>> => {
  if (!flow || !current) {
    return {
      changes: ['name', 'steps', ...(file.folder === null ? [] : (['folder'] as const))],
      publish: file.active ? { version: 1, created: true } : null,
      deactivate: false,
    };
  }
  const changed = compareContents(current, content);
  const changes: FlowPart[] = [];
  if (changed.name) changes.push('name');
  if (stepsChanged(changed)) changes.push('steps');
  if (flow.folderId !== folderId || (file.folder !== null && folderId === null)) changes.push('folder');
  if (!file.active) return { changes, publish: null, deactivate: flow.active };
  const published = flow.publishedVersion && (await repos.flowVersions.findById(flow.publishedVersion.id));
  const runsOther = !published || differs(content, published);
  const publish = runsOther
    ? { version: (await repos.flowVersions.lastNumber(flow.id)) + 1, created: true }
    : flow.active
      ? null
      : { version: published.number, created: false };
  return { changes, publish, deactivate: false };
};
