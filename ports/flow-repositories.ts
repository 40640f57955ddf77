import type { ExportDocument } from '../core/domain/export-document.js';
import type {
  BranchConditions,
  Flow,
  Folder,
  Step,
  StepDefinition,
  StepStatus,
  StructuralType,
  VersionRef,
} from '../core/domain/flow.js';
import type { FlowVersion, FlowVersionSummary } from '../core/domain/flow-version.js';
import type { Page, PageRequest } from '../core/domain/page.js';
import type { Template } from '../core/domain/template.js';

export interface NewFlow {
  readonly id: string;
  readonly userId: string;
  readonly name: string;
  readonly folderId: string | null;
  readonly now: Date;
}

export interface FlowFilter {
  /** Only this owner's flows; null for everyone's. */
  readonly ownerId: string | null;
  /** Case-insensitive substring of the name. */
  readonly name?: string | undefined;
  readonly active?: boolean | undefined;
  /** A folder's flows; null for flows in no folder; undefined for any. */
  readonly folderId?: string | null | undefined;
  /** Flows with a step of this app. */
  readonly appKey?: string | undefined;
  /** Flows with a step using this connection. */
  readonly connectionId?: string | undefined;
}

export interface FlowChanges {
  readonly name?: string;
  readonly active?: boolean;
  readonly publishedAt?: Date | null;
  readonly folderId?: string | null;
  readonly publishedVersion?: VersionRef | null;
  /** The version the draft was last made from (kept from pruning). */
  readonly draftBaseVersionId?: string | null;
  readonly draftChanged?: boolean;
  readonly fileKey?: string;
}

export interface FlowRepository {
  insert(flow: NewFlow): Promise<Flow>;
  findById(id: string): Promise<Flow | null>;
  /**
   * The flow with its draft's trigger step (the first by position), in one round trip where the
   * database allows; null when the flow is gone or its owner's account was removed: such a flow no
   * longer runs. An active flow with a published version runs that version's trigger, which the
   * engine reads itself: its draft's is not read (`trigger` null).
   */
  findWithTrigger(id: string): Promise<{ readonly flow: Flow; readonly trigger: Step | null } | null>;
  /**
   * Holds the flow's row until the unit of work ends, so that concurrent changes of its steps'
   * positions take turns (SQLite's write transactions already do).
   */
  lock(id: string): Promise<void>;
  /** Most recently updated first. */
  list(filter: FlowFilter, page: PageRequest): Promise<Page<Flow>>;
  /** Every flow of the owner with its key in files, oldest first. */
  listWithFileKeys(userId: string): Promise<ReadonlyArray<{ readonly flow: Flow; readonly fileKey: string | null }>>;
  /**
   * Opens a change of the flow's draft: its revision grows by one, unless `basedOn` is given and
   * is not the stored revision. The new revision, or null (stale, or no such flow). On Postgres
   * it holds the flow's row until the unit of work ends, so that changes of one draft take turns.
   */
  reviseDraft(id: string, basedOn: number | null, now: Date): Promise<number | null>;
  /** Also marks the flow updated, with no other change when `changes` is empty. */
  update(id: string, changes: FlowChanges, now: Date): Promise<void>;
  /** Deletes the flow with its steps. */
  delete(id: string): Promise<void>;
  /** Unpublishes every published flow of the user; the ids of those it unpublished. */
  deactivateAllOfUser(userId: string, now: Date): Promise<string[]>;
  /** How many of the user's flows have a step of each app. */
  countByApp(userId: string): Promise<ReadonlyArray<{ readonly appKey: string; readonly count: number }>>;
}

export interface NewStep extends StepDefinition {
  readonly id: string;
  readonly flowId: string;
  readonly position: number;
  readonly status: StepStatus;
  readonly appVersion: number | null;
  /** False unless given. */
  readonly continueOnFailure?: boolean;
  /** `single` unless given. */
  readonly structuralType?: StructuralType;
  readonly parentStepId?: string | null;
  readonly branchConditions?: BranchConditions | null;
  readonly now: Date;
}

export type StepChanges = Partial<
  Pick<
    Step,
    | 'appKey'
    | 'key'
    | 'name'
    | 'parameters'
    | 'connectionId'
    | 'status'
    | 'appVersion'
    | 'position'
    | 'continueOnFailure'
    | 'structuralType'
    | 'parentStepId'
    | 'branchConditions'
  >
>;

export interface StepRepository {
  insert(steps: readonly NewStep[]): Promise<void>;
  findById(id: string): Promise<Step | null>;
  /** By position. */
  listByFlow(flowId: string): Promise<Step[]>;
  /** Steps of several flows, each flow's by position. */
  listByFlows(flowIds: readonly string[]): Promise<Step[]>;
  update(id: string, changes: StepChanges, now: Date): Promise<void>;
  delete(id: string): Promise<void>;
  /** Steps that used the connection lose it and become incomplete; returns the flows they belong to. */
  detachConnection(connectionId: string, now: Date): Promise<string[]>;
}

export interface FlowVersionRepository {
  insert(version: FlowVersion): Promise<void>;
  findById(id: string): Promise<FlowVersion | null>;
  /** Newest first. */
  list(flowId: string, page: PageRequest): Promise<Page<FlowVersionSummary>>;
  /** The number of the flow's newest version; 0 when it has none. */
  lastNumber(flowId: string): Promise<number>;
  /**
   * Retention: deletes up to `limit` versions beyond the newest `keep` of their flow that no flow
   * (as published, or as its draft's base) and no execution points to; how many it deleted.
   */
  prune(keep: number, limit: number): Promise<number>;
}

export interface FolderRepository {
  /** The user's folders, by name. */
  listByUser(userId: string): Promise<Folder[]>;
  findById(id: string): Promise<Folder | null>;
  insert(folder: {
    readonly id: string;
    readonly userId: string;
    readonly name: string;
    readonly now: Date;
  }): Promise<Folder>;
  rename(id: string, name: string, now: Date): Promise<void>;
  /** Its flows stay, in no folder. */
  delete(id: string): Promise<void>;
}

export interface TemplateRepository {
  /** By name. */
  list(): Promise<Template[]>;
  findById(id: string): Promise<Template | null>;
  insert(template: {
    readonly id: string;
    readonly name: string;
    readonly flowData: ExportDocument;
    readonly now: Date;
  }): Promise<Template>;
  rename(id: string, name: string, now: Date): Promise<void>;
  delete(id: string): Promise<boolean>;
}
