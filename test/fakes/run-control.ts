import type {
  AgentRunOutcome,
  AgentRunRequest,
  CalledRun,
  RunControl,
  RunSignal,
  SignalKind,
} from '../../ports/step-runner.js';

/** What persistence does to a value: kept as JSON, read back as JSON. */
const stored = <T>(value: T): T => (value === undefined ? (null as T) : JSON.parse(JSON.stringify(value)));

interface HeldSignal extends RunSignal {
  takenBy: string | null;
}

/**
 * One run as the engine's RunControl presents it to its steps, in memory, with the port's promises:
 * `keep` answers the first value kept by the step, ever; a step takes a signal once, keeps it, and
 * is the only one to get it; a step calls a flow once, and asked again answers the same run. The
 * test plays the world: signals that come in, flows refused, called runs that end.
 */
export class FakeRun {
  readonly executionId = '0b5e5e1e-0000-4000-8000-000000000001';
  readonly token = 'fake-resume-token';
  readonly signals: HeldSignal[] = [];
  /** By calling step. */
  readonly calls = new Map<
    string,
    { readonly flowId: string; readonly input: unknown; readonly executionId: string }
  >();
  /** What steps asked of `runAgent`, and what it answers, in order (the test scripts it). */
  readonly agentRequests: AgentRunRequest[] = [];
  readonly agentOutcomes: AgentRunOutcome[] = [];
  private readonly kept = new Map<string, unknown>();
  private readonly refused = new Map<string, string>();
  private readonly called = new Map<string, CalledRun>();
  private serial = 0;

  get resumeUrl() {
    return `https://conveyor.test/webhooks/runs/${this.executionId}/${this.token}`;
  }

  /** Something reached the run's resume URL (or a page under it). */
  signal(kind: SignalKind, payload: unknown, at = new Date()) {
    this.signals.push({ kind, payload: stored(payload), at, takenBy: null });
  }

  /** `callFlow` refuses this flow, for this reason. */
  refuse(flowId: string, reason: string) {
    this.refused.set(flowId, reason);
  }

  /** A run this run called ends. */
  finish(executionId: string, end: Pick<CalledRun, 'status' | 'result' | 'error'>) {
    const run = this.called.get(executionId);
    if (!run) throw new Error(`${executionId} is not a run this run called`);
    this.called.set(executionId, { ...run, ...stored(end) });
  }

  /** What the step where it runs (its id and loop iterations) may ask of the run. */
  control(stepKey = 'step-1'): RunControl {
    return {
      resumeUrl: async () => this.resumeUrl,
      keep: async <T>(value: T): Promise<T> => {
        if (this.kept.has(stepKey)) return stored(this.kept.get(stepKey) as T);
        this.kept.set(stepKey, stored(value));
        return value;
      },
      takeSignal: async (kind) => {
        const signal =
          this.signals.find((s) => s.kind === kind && s.takenBy === stepKey) ??
          this.signals.find((s) => s.kind === kind && s.takenBy === null);
        if (!signal) return null;
        signal.takenBy = stepKey;
        return { kind: signal.kind, payload: stored(signal.payload), at: signal.at };
      },
      callFlow: async (flowId, input) => {
        const previous = this.calls.get(stepKey);
        if (previous) return { ok: true, executionId: previous.executionId };
        const reason = this.refused.get(flowId);
        if (reason !== undefined) return { ok: false, reason };
        this.serial += 1;
        const executionId = `0b5e5e1e-0000-4000-8000-${String(this.serial).padStart(12, '0')}`;
        this.calls.set(stepKey, { flowId, input: stored(input), executionId });
        this.called.set(executionId, { executionId, status: 'running', result: null, error: null });
        return { ok: true, executionId };
      },
      calledRun: async (executionId) => this.called.get(executionId) ?? null,
      runAgent: async (request) => {
        this.agentRequests.push(stored(request));
        const next = this.agentOutcomes.shift();
        if (!next) throw new Error('no agent outcome scripted');
        return next;
      },
    };
  }
}
