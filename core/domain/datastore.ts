/**
 * A flow's store (`flow_store`) also holds the engine's own values (a polling trigger's cursor);
 * the datastore app's keys live apart under this prefix, and only they are shown and deleted.
 */
export const DATASTORE_PREFIX = 'datastore:';

/** The store key of a datastore app's key. */
export const datastoreKey = (key: string) => `${DATASTORE_PREFIX}${key}`;

/** One value the datastore app keeps for a flow. */
export interface DatastoreEntry {
  readonly key: string;
  readonly value: unknown;
  readonly updatedAt: Date;
}
