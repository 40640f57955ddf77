/** What an inbox asks of the connection when it holds too much, and when it has room again. */
export interface FlowControl {
  pause(): void;
  resume(): void;
}

/**
 * Messages a server pushes without being asked (pub/sub), taken one at a time. Once `limit` wait,
 * it pauses the socket, so that the rest wait in the kernel's and the server's buffers rather
 * than in memory (Redis drops a subscriber whose output buffer grows past its limit; the listener
 * then throws and is opened again: pub/sub is at most once), and resumes when all were taken.
 * Messages that arrive in the chunk being read when it pauses still enter: the bound is `limit`
 * plus one socket read.
 */
export const createInbox = <T>(limit: number, flow: FlowControl) => {
  const items: T[] = [];
  let paused = false;
  let ended: { readonly error: Error | null } | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    const waiting = wake;
    wake = null;
    waiting?.();
  };
  return {
    push(item: T) {
      if (ended) return;
      items.push(item);
      if (!paused && items.length >= limit) {
        paused = true;
        flow.pause();
      }
      notify();
    },
    /** No more messages: `next` answers those already in, then null, or throws `error`. */
    end(error: Error | null = null) {
      ended ??= { error };
      notify();
    },
    /** Nothing waits and the socket reads: the connection is idle. */
    get idle() {
      return items.length === 0 && !paused;
    },
    get size() {
      return items.length;
    },
    async next(): Promise<T | null> {
      while (items.length === 0) {
        if (ended) {
          if (ended.error) throw ended.error;
          return null;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      const item = items.shift() as T;
      if (paused && items.length === 0) {
        paused = false;
        flow.resume();
      }
      return item;
    },
  };
};
