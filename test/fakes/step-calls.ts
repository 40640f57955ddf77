import type { StepCall } from '../../core/domain/agent.js';
import type { StepCallRepository } from '../../ports/agent-repositories.js';

/** What persistence does to a value: kept as JSON, read back as JSON. */
const stored = <T>(value: T): T => (value === undefined ? (null as T) : JSON.parse(JSON.stringify(value)));

/** `execution_step_calls` in memory, with the repository's promises (one call per step and seq). */
export class InMemoryStepCalls implements StepCallRepository {
  readonly rows: StepCall[] = [];

  async insert(call: StepCall) {
    if (this.rows.some((r) => r.executionId === call.executionId && r.stepKey === call.stepKey && r.seq === call.seq))
      return false;
    this.rows.push(stored(call));
    return true;
  }

  async finish(id: string, changes: Parameters<StepCallRepository['finish']>[1]) {
    const index = this.rows.findIndex((r) => r.id === id);
    const row = this.rows[index];
    if (row) this.rows[index] = { ...row, ...stored(changes), finishedAt: changes.finishedAt };
  }

  async listByStep(executionId: string, stepKey: string) {
    return this.rows
      .filter((r) => r.executionId === executionId && r.stepKey === stepKey)
      .sort((a, b) => a.seq - b.seq)
      .map((r) => ({ ...stored(r), startedAt: r.startedAt, finishedAt: r.finishedAt }));
  }

  async listByExecution(executionId: string) {
    return this.rows.filter((r) => r.executionId === executionId);
  }
}
