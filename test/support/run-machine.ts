import type { BackoffPolicy } from '../../core/domain/backoff.js';
import type { RecordedStep, RunContext, RunEvent, RunState } from '../../core/domain/run-machine.js';

/** What the run state machine's tests start from: a time, a policy, a fresh run and its events. */

export const T0 = new Date('2026-01-01T00:00:00Z');
export const POLICY: BackoffPolicy = { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 60_000 };
export const context = (now = T0, policy = POLICY, random = () => 0.5): RunContext => ({
  now,
  backoff: policy,
  random,
});

export const triggerRecord: RecordedStep = {
  stepId: 'trigger',
  scope: '',
  status: 'success',
  output: { n: 1 },
  error: null,
  task: false,
};
export const fresh = (over: Partial<RunState> = {}): RunState => ({
  status: 'running',
  testRun: false,
  untilStepId: null,
  attempts: 0,
  records: [triggerRecord],
  ...over,
});
export const succeeded = (stepId: string, extra: Partial<Extract<RunEvent, { kind: 'succeeded' }>> = {}): RunEvent => ({
  kind: 'succeeded',
  stepId,
  output: { from: stepId },
  ...extra,
});
