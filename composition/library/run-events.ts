import type { RunEnd, RunObserver } from '../../ports/run-observer.js';

/** What an execution event carries: the run that ended, as the engine recorded it. */
export type ExecutionEvent = RunEnd;

/**
 * `executionFinished`: every run that ends, whatever its status. `executionFailed`: only those
 * that end in failure (they fire both).
 */
export type ExecutionEventName = 'executionFinished' | 'executionFailed';
export type ExecutionListener = (event: ExecutionEvent) => void;

/** The observer the engine tells of each run's end, fanned out to the embedder's listeners. */
export const createRunEvents = () => {
  const listeners: Record<ExecutionEventName, Set<ExecutionListener>> = {
    executionFinished: new Set(),
    executionFailed: new Set(),
  };
  // Every listener hears of the run even when one throws; the engine logs what was thrown.
  const emit = (name: ExecutionEventName, event: ExecutionEvent) => {
    const errors: unknown[] = [];
    for (const listener of listeners[name]) {
      try {
        listener(event);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw errors.length === 1 ? errors[0] : new AggregateError(errors, 'listeners failed');
  };
  const observer: RunObserver = {
    runEnded(end) {
      emit('executionFinished', end);
      if (end.status === 'failure') emit('executionFailed', end);
    },
  };
  return {
    observer,
    on(name: ExecutionEventName, listener: ExecutionListener): () => void {
      listeners[name].add(listener);
      return () => listeners[name].delete(listener);
    },
  };
};
