import { writeSync } from 'node:fs';

/** Lines waiting for a full pipe to drain, at most this many bytes; past it new lines are dropped. */
const MAX_PENDING_BYTES = 1024 * 1024;
/** How soon lines held back by a full pipe are tried again. */
const RETRY_MS = 50;

export interface LogDestinationOptions {
  /** The file descriptor lines go to: 1, standard output, by default. */
  readonly fd?: number;
  /** Told once writing works again how many lines were lost, and why (an error code). */
  readonly onRecovered?: (dropped: number, reason: string) => void;
  /** Writes bytes, answering how many were written; `fs.writeSync` unless a test replaces it. */
  readonly write?: (fd: number, bytes: Uint8Array) => number;
}

export interface LogDestination {
  write(line: string): void;
}

const codeOf = (error: unknown): string => String((error as NodeJS.ErrnoException).code ?? 'unknown');

/**
 * Where log lines go: never waited on, never thrown from. pino's own destination retries a failed
 * write until it succeeds, so a full disk under the log file (ENOSPC) froze the whole process for
 * good. Here a write that fails drops its line and counts it; once a write succeeds again,
 * `onRecovered` is told once how many were dropped. A pipe that is momentarily full (EAGAIN) holds
 * lines back, up to MAX_PENDING_BYTES, and tries them again shortly, in order.
 */
export const createLogDestination = ({
  fd = 1,
  onRecovered,
  write = writeSync,
}: LogDestinationOptions = {}): LogDestination => {
  const pending: Buffer[] = [];
  let pendingBytes = 0;
  let dropped = 0;
  let reason = '';
  let retrying = false;

  const drop = (lines: number, error: unknown) => {
    dropped += lines;
    reason = codeOf(error);
  };

  /** Writes as much of `bytes` as the descriptor takes now; answers what is left (EAGAIN). */
  const writeNow = (bytes: Buffer): Buffer => {
    let rest = bytes;
    while (rest.length > 0) {
      try {
        rest = rest.subarray(write(fd, rest));
      } catch (error) {
        if (codeOf(error) === 'EAGAIN') return rest;
        throw error;
      }
    }
    return rest;
  };

  // At exit, one last try for lines a full pipe held back; never a wait.
  const flushAtExit = () => {
    for (const bytes of pending.splice(0)) {
      try {
        if (writeNow(bytes).length > 0) return;
      } catch {
        return;
      }
    }
  };

  /** Keeps the bytes for the next try, unless too much is waiting already: answers whether it did. */
  const hold = (bytes: Buffer): boolean => {
    if (pendingBytes + bytes.length > MAX_PENDING_BYTES) {
      drop(1, { code: 'EAGAIN' });
      return false;
    }
    if (pending.length === 0) process.once('exit', flushAtExit);
    pending.push(bytes);
    pendingBytes += bytes.length;
    retryLater();
    return true;
  };

  function retryLater() {
    if (retrying) return;
    retrying = true;
    setTimeout(drain, RETRY_MS).unref();
  }

  function drain() {
    retrying = false;
    while (pending.length > 0) {
      const bytes = pending[0] as Buffer;
      let rest: Buffer;
      try {
        rest = writeNow(bytes);
      } catch (error) {
        drop(pending.length, error);
        pending.length = 0;
        pendingBytes = 0;
        break;
      }
      pendingBytes -= bytes.length - rest.length;
      if (rest.length > 0) {
        pending[0] = rest;
        retryLater();
        return;
      }
      pending.shift();
    }
    process.removeListener('exit', flushAtExit);
  }

  /** Answers whether the line was written or held back, rather than dropped. */
  const writeLine = (line: string): boolean => {
    const bytes = Buffer.from(line);
    if (pending.length > 0) return hold(bytes);
    try {
      const rest = writeNow(bytes);
      return rest.length === 0 || hold(rest);
    } catch (error) {
      drop(1, error);
      return false;
    }
  };

  return {
    write(line) {
      if (!writeLine(line) || dropped === 0) return;
      // Writing works again: say once how many lines were lost. The report is logged like any
      // line, through this destination; should it be lost too, the next recovery counts it.
      const lost = dropped;
      dropped = 0;
      onRecovered?.(lost, reason);
    },
  };
};
