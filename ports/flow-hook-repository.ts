/**
 * A hook an instant trigger registered with its vendor when its flow was published, with what is
 * needed to remove it later: the app and trigger, the connection and parameters it was registered
 * with, the address it delivers to, and what `registerHook` returned. The row outlives its flow and
 * the trigger step (it is what the vendor still has), until the hook is removed.
 */
export interface FlowHook {
  readonly flowId: string;
  readonly appKey: string;
  readonly triggerKey: string;
  readonly connectionId: string | null;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly webhookUrl: string;
  /** What the trigger's `registerHook` returned, as JSON holds it (sealed at rest: it may hold a signing secret). */
  readonly state: unknown;
  readonly createdAt: Date;
}

/** The hooks vendors hold for flows (`flow_hooks`), one per flow at most. */
export interface FlowHookRepository {
  find(flowId: string): Promise<FlowHook | null>;
  /** Keeps a hook just registered; false when the flow has one already (another publish stored it first). */
  insert(hook: FlowHook): Promise<boolean>;
  delete(flowId: string): Promise<void>;
  /** Flows that hold a hook but are gone or not published: hooks left by a crash before their removal. */
  listStale(limit: number): Promise<string[]>;
}
