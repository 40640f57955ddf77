import type { FlowListener, ListenerStatus } from '../core/domain/listener.js';

export interface ListenerReport {
  readonly status: ListenerStatus;
  readonly failures: number;
  /** Kept as it is when undefined (a listener that recovers still shows its last error). */
  readonly lastError?: string | null;
  readonly now: Date;
}

/** The subscriptions of listener triggers and the messages they accepted. */
export interface ListenerRepository {
  /**
   * The flow listens with the trigger of this version, on this connection: its row is made
   * (`starting`), or, when either differs from the stored one, its revision is raised so that its
   * holder opens it again as it now is.
   */
  want(flowId: string, versionId: string | null, connectionId: string | null, now: Date): Promise<void>;
  /** The flow no longer listens: its holder closes the subscription at its next look. */
  drop(flowId: string): Promise<void>;
  /** Raises the revision of every subscription opened with this connection (its fields changed). */
  touchConnection(connectionId: string): Promise<void>;
  find(flowId: string): Promise<FlowListener | null>;
  findMany(flowIds: readonly string[]): Promise<FlowListener[]>;
  /**
   * Takes up to `limit` subscriptions that no process holds or whose holder's lease ran out, each
   * by a conditional write (two processes never both take one). Answers those taken.
   */
  claim(holder: string, now: Date, leaseUntil: Date, limit: number): Promise<FlowListener[]>;
  /** Extends the holder's leases; answers the subscriptions it still holds, as stored now. */
  renew(holder: string, leaseUntil: Date): Promise<FlowListener[]>;
  /** Lets go of these subscriptions (a process stopping), so another takes them over at once. */
  release(holder: string, flowIds: readonly string[]): Promise<void>;
  /** Records how a subscription the holder holds stands. */
  report(flowId: string, holder: string, report: ListenerReport): Promise<void>;
  /** Records accepted messages' keys; answers the keys not recorded before, in the order given. */
  rememberMessages(flowId: string, keys: readonly string[], now: Date): Promise<string[]>;
  /** Forgets message keys recorded before `before`; answers how many. */
  forgetMessages(before: Date): Promise<number>;
}
