import { describe, expect, it } from 'vitest';
import { CapturingLogger } from '../../test/support/capturing-logger.js';
import { ManualClock } from '../../test/support/clock.js';
import type { DomainError } from '../domain/errors.js';
import type { Result } from '../domain/result.js';
import {
  BACKLOG_SAMPLE_MS,
  type IntakeGate,
  type IntakeLimits,
  type IntakePass,
  makeIntakeGate,
} from './intake-gate.js';

const OFF: IntakeLimits = { flowRatePerSecond: 0, flowBurst: 1, maxPending: 0, maxBacklog: 0, maxFlowBacklog: 0 };

/** The database's count of unfinished runs, as the test sets it; `failing` makes the count throw. */
class RunningRuns {
  counts = new Map<string, number>();
  failing = false;
  asked = 0;
  async countRunningByFlow() {
    this.asked++;
    if (this.failing) throw new Error('the database is away');
    return new Map(this.counts);
  }
}

const setUp = (limits: Partial<IntakeLimits>) => {
  const clock = new ManualClock();
  const running = new RunningRuns();
  const logger = new CapturingLogger();
  const gate = makeIntakeGate({ executions: running, clock, logger, limits: { ...OFF, ...limits } });
  return { clock, running, logger, gate };
};

const passOf = (result: Result<IntakePass, DomainError>): IntakePass => {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.error)}`);
  return result.value;
};
/** A call that stored one run and was answered. */
const accept = (gate: IntakeGate, flowId: string) => {
  const pass = passOf(gate.enter(flowId));
  pass.started(1);
  pass.leave();
};
const refusal = (result: Result<IntakePass, DomainError>) => (result.ok ? 'admitted' : result.error);
/** Lets the count the gate asked for come back. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the webhook intake gate', () => {
  it('admits everything when every limit is off', () => {
    const { gate } = setUp({});
    for (let i = 0; i < 1000; i++) passOf(gate.enter('flow-a')).started(1); // and never leave
  });

  it('refuses a flow over its rate with 429 and the seconds until it may call again, without holding up other flows', () => {
    const { gate, clock } = setUp({ flowRatePerSecond: 2, flowBurst: 3 });
    for (let i = 0; i < 3; i++) passOf(gate.enter('flow-a')).leave();
    expect(refusal(gate.enter('flow-a'))).toEqual({ code: 'auth.rate_limited', retryAfterSeconds: 1 });
    passOf(gate.enter('flow-b'));
    clock.advance(500); // one call's worth at 2 a second
    passOf(gate.enter('flow-a'));
    expect(refusal(gate.enter('flow-a'))).toEqual({ code: 'auth.rate_limited', retryAfterSeconds: 1 });
  });

  it('tells a slow flow to wait as long as its rate says', () => {
    const { gate } = setUp({ flowRatePerSecond: 0.1, flowBurst: 1 });
    passOf(gate.enter('flow-a'));
    expect(refusal(gate.enter('flow-a'))).toEqual({ code: 'auth.rate_limited', retryAfterSeconds: 10 });
  });

  it('refuses with 503 beyond the calls the process is storing, and admits again once one is stored', () => {
    const { gate } = setUp({ maxPending: 2 });
    const first = passOf(gate.enter('flow-a'));
    passOf(gate.enter('flow-b'));
    expect(refusal(gate.enter('flow-c'))).toEqual({ code: 'service.busy', retryAfterSeconds: 1 });
    first.leave();
    first.leave(); // leaving twice frees one place only
    passOf(gate.enter('flow-c'));
    expect(refusal(gate.enter('flow-c'))).toEqual({ code: 'service.busy', retryAfterSeconds: 1 });
  });

  it('refuses a flow whose unfinished runs and calls reach its backlog, and lets other flows in', async () => {
    const { gate, running, clock } = setUp({ maxFlowBacklog: 3 });
    running.counts.set('flow-a', 1);
    passOf(gate.enter('flow-b')).leave(); // the gate asks for the count
    await settle();
    accept(gate, 'flow-a');
    passOf(gate.enter('flow-a')); // still being stored
    expect(refusal(gate.enter('flow-a'))).toEqual({ code: 'service.busy', retryAfterSeconds: 1 });
    passOf(gate.enter('flow-b'));
    // The runs finish; the next count after the sample interval shows it.
    running.counts.clear();
    clock.advance(BACKLOG_SAMPLE_MS);
    expect(refusal(gate.enter('flow-a'))).toEqual({ code: 'service.busy', retryAfterSeconds: 1 });
    await settle();
    passOf(gate.enter('flow-a'));
  });

  it('refuses every flow once all unfinished runs together reach the process backlog', async () => {
    const { gate, running } = setUp({ maxBacklog: 10 });
    running.counts.set('flow-a', 6).set('flow-b', 2);
    accept(gate, 'flow-c');
    await settle();
    accept(gate, 'flow-c'); // 6 + 2 + 1 + 1
    expect(refusal(gate.enter('flow-d'))).toEqual({ code: 'service.busy', retryAfterSeconds: 1 });
  });

  it('counts runs accepted while a count is under way until the next count, so it never under-estimates', async () => {
    const { gate, running, clock } = setUp({ maxFlowBacklog: 2 });
    accept(gate, 'flow-a'); // asks for a count, which does not include this run
    expect(running.asked).toBe(1);
    await settle();
    accept(gate, 'flow-a');
    expect(refusal(gate.enter('flow-a'))).toMatchObject({ code: 'service.busy' });
    clock.advance(BACKLOG_SAMPLE_MS);
    running.counts.set('flow-a', 2);
    expect(refusal(gate.enter('flow-a'))).toMatchObject({ code: 'service.busy' });
    await settle();
    expect(refusal(gate.enter('flow-a'))).toMatchObject({ code: 'service.busy' });
  });

  it('asks the database at most once per sample interval, and keeps its estimate when the count fails', async () => {
    const { gate, running, clock, logger } = setUp({ maxFlowBacklog: 2 });
    running.failing = true;
    accept(gate, 'flow-a');
    passOf(gate.enter('flow-a')).leave();
    expect(running.asked).toBe(1);
    await settle();
    expect(logger.entries.some((e) => e.level === 'warn')).toBe(true);
    clock.advance(BACKLOG_SAMPLE_MS);
    accept(gate, 'flow-a');
    expect(running.asked).toBe(2);
    await settle();
    expect(refusal(gate.enter('flow-a'))).toMatchObject({ code: 'service.busy' });
  });
});
