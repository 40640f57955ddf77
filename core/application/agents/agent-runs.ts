import type { ChatMessage } from '../../../ports/language-model.js';
import type { Actor } from '../../domain/actor.js';
import type { AgentExecution, StepCall } from '../../domain/agent.js';
import { appCallFailed, type DomainError, notFound } from '../../domain/errors.js';
import type { Page, PageRequest } from '../../domain/page.js';
import { err, ok, type Result } from '../../domain/result.js';
import { testAgent } from '../../engine/agent-run.js';
import type { CoreDeps } from '../deps.js';
import { loadOwnAgent } from './own-agent.js';

export interface AgentTestAnswer {
  readonly response: string;
  /** The agent's run (`agent_executions`). */
  readonly executionId: string;
  /** Tools left out of a test: flows, and tools a person approves first (there is no run to wait in). */
  readonly skipped: readonly string[];
}

export interface AgentExecutionDetail extends AgentExecution {
  /** Its model and tool calls, in order; none for a test from the console (they are not kept). */
  readonly calls: readonly StepCall[];
}

/** Runs of the caller's agents: tests from the console, and what flows' steps ran. */
export const makeAgentRuns = (deps: Pick<CoreDeps, 'repos' | 'clock' | 'ids' | 'apps' | 'runner'>) => ({
  /**
   * Runs the agent on the conversation (its last message the user's) outside any flow: flows and
   * tools asking first are left out (`skipped` names them); a model that fails answers 422.
   */
  async testAgent(
    actor: Actor,
    agentId: string,
    messages: readonly ChatMessage[],
  ): Promise<Result<AgentTestAnswer, DomainError>> {
    const loaded = await loadOwnAgent(deps.repos, actor, agentId, 'manage');
    if (!loaded.ok) return loaded;
    const outcome = await testAgent(deps, loaded.value, messages);
    if (!outcome.ok) return err(appCallFailed(outcome.failure.message));
    return ok({ response: outcome.response, executionId: outcome.executionId, skipped: outcome.skipped });
  },

  async listAgentExecutions(
    actor: Actor,
    agentId: string,
    page: PageRequest,
  ): Promise<Result<Page<AgentExecution>, DomainError>> {
    const loaded = await loadOwnAgent(deps.repos, actor, agentId, 'read');
    return loaded.ok ? ok(await deps.repos.agentExecutions.listByAgent(agentId, page)) : loaded;
  },

  async getAgentExecution(
    actor: Actor,
    agentId: string,
    executionId: string,
  ): Promise<Result<AgentExecutionDetail, DomainError>> {
    const loaded = await loadOwnAgent(deps.repos, actor, agentId, 'read');
    if (!loaded.ok) return loaded;
    const run = await deps.repos.agentExecutions.findById(executionId);
    if (run?.agentId !== agentId) return err(notFound('AgentExecution'));
    const calls =
      run.executionId !== null && run.stepKey !== null
        ? await deps.repos.stepCalls.listByStep(run.executionId, run.stepKey)
        : [];
    return ok({ ...run, calls });
  },
});
