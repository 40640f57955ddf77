import type { Credentials } from '../../core/domain/app.js';
import type { ConnectionUse, OAuthClientSettings } from '../../ports/app-catalog.js';

/**
 * A stored connection kept in memory, for apps' tests through the catalog: pass `use` as a step's
 * connection and read what the app stored (`stored()`, every write in `writes`, and `verified`,
 * which a revoked grant sets to false). Changes are applied one at a time, as the database does.
 */
export const memoryConnection = (credentials: Credentials, client: OAuthClientSettings | null = null) => {
  let stored = credentials;
  let queue: Promise<unknown> = Promise.resolve();
  const state = { verified: true, writes: [] as Credentials[] };
  const use: ConnectionUse = {
    credentials,
    oauth: client ? { client } : null,
    change: (change) => {
      const result = queue.then(async () => {
        const next = await change(stored);
        if (next?.credentials) {
          stored = next.credentials;
          state.writes.push(stored);
        }
        if (next?.verified !== undefined) state.verified = next.verified;
        return stored;
      });
      queue = result.catch(() => {});
      return result;
    },
  };
  return {
    use,
    stored: () => stored,
    get writes(): readonly Credentials[] {
      return state.writes;
    },
    get verified() {
      return state.verified;
    },
  };
};
