import { describe, expect, it } from 'vitest';
import type { Logger } from '../../ports/logger.js';
import type { Execution } from '../domain/execution.js';
import { announceRunEnd } from './run-end.js';

class CapturingLogger implements Logger {
  readonly entries: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  debug() {}
  info() {}
  warn() {}
  error(fields: Record<string, unknown>, message: string) {
    this.entries.push({ level: 'error', fields, message });
  }
}

const execution = { id: 'run-1', flowId: 'flow-1', testRun: false } as Execution;
const end = { status: 'failure', failed: { stepId: 'step-2', error: 'boom' }, finishedAt: new Date(0) } as const;

describe('announceRunEnd', () => {
  it('tells the observer which run ended, how and when', () => {
    const heard: unknown[] = [];
    announceRunEnd({ logger: new CapturingLogger(), runObserver: { runEnded: (e) => heard.push(e) } }, execution, end);
    expect(heard).toEqual([{ executionId: 'run-1', flowId: 'flow-1', testRun: false, ...end }]);
  });

  it('logs an observer that throws and lets the run go on', () => {
    const logger = new CapturingLogger();
    const runObserver = {
      runEnded() {
        throw new Error('listener broke');
      },
    };
    expect(() => announceRunEnd({ logger, runObserver }, execution, end)).not.toThrow();
    expect(logger.entries).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'a run observer failed',
        fields: expect.objectContaining({ executionId: 'run-1' }),
      }),
    ]);
  });

  it('does nothing without an observer (the server)', () => {
    expect(() => announceRunEnd({ logger: new CapturingLogger() }, execution, end)).not.toThrow();
  });
});
