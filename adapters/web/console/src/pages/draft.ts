import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type Reply, request } from '../api';

/**
 * Optimistic concurrency on a flow's draft: every change of it carries, as `If-Match`, the
 * revision the console last saw (from the flow it loaded, then from each change's `ETag`). A
 * change based on an older revision (another tab, another person) answers 409: the editor says
 * so and offers to reload, rather than overwriting their work or dropping the user's silently.
 */

export const isDraftConflict = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 409 && error.type === 'DraftConflictError';

/** The revision an `ETag` names (`"12"`, or weak `W/"12"`); null when there is none. */
export const revisionOf = (etag: string | null): number | null => {
  const match = etag ? /(\d+)/.exec(etag) : null;
  return match ? Number(match[1]) : null;
};

/** The header that bases a change on a revision of the draft. */
export const ifMatch = (revision: number): Record<string, string> => ({ 'if-match': `"${revision}"` });

export type DraftWrite = <T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown) => Promise<Reply<T>>;

export interface Draft {
  /** Sends a change of the draft, based on the revision the console holds. */
  readonly write: DraftWrite;
  /** Takes the revision of a flow loaded whole (its view is now that revision's). */
  readonly adopt: (revision: number | null) => void;
  /** The revision the console holds, for what must follow the draft (a comparison with it). */
  readonly revision: number | null;
  /** A change was refused as based on an older revision; cleared by `reloaded`. */
  readonly conflict: boolean;
  readonly reloaded: () => void;
}

/**
 * The draft of one flow. `refreshState` is called after a change whose answer is not the flow (a
 * step's, a published version's), for the editor to ask again what the flow's state now is (does
 * the draft differ from the published version, which version is live).
 */
export const useDraft = (flowId: string, refreshState: () => void): Draft => {
  const held = useRef<{ flowId: string; revision: number | null }>({ flowId, revision: null });
  // Another flow in the same editor starts from nothing.
  if (held.current.flowId !== flowId) held.current = { flowId, revision: null };
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const [revision, setRevision] = useState<number | null>(null);
  const [conflict, setConflict] = useState(false);
  useEffect(() => setConflict(false), [flowId]);
  const latestRefreshState = useRef(refreshState);
  latestRefreshState.current = refreshState;

  // Revisions only grow: an answer that arrives late never takes the console back.
  const adopt = useCallback((next: number | null) => {
    if (next === null) return;
    const current = held.current.revision;
    if (current === null || next > current) {
      held.current.revision = next;
      setRevision(next);
    }
  }, []);

  const write = useCallback(
    <T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<Reply<T>> => {
      // One change at a time: each goes with the revision the one before it answered.
      const sent = queue.current.then(async () => {
        const based = held.current.revision;
        try {
          const reply = await request<T>(
            method,
            path,
            method === 'DELETE' ? undefined : (body ?? {}),
            based === null ? {} : ifMatch(based),
          );
          adopt(revisionOf(reply.etag));
          if (reply.meta.type !== 'Flow') latestRefreshState.current();
          return reply;
        } catch (error) {
          if (isDraftConflict(error)) setConflict(true);
          throw error;
        }
      });
      queue.current = sent.catch(() => undefined);
      return sent;
    },
    [adopt],
  );

  const reloaded = useCallback(() => setConflict(false), []);
  return { write, adopt, revision, conflict, reloaded };
};
