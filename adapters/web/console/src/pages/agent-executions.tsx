import { useState } from 'preact/hooks';
import { api, query } from '../api';
import type { AgentExecution } from '../types';
import { Badge, Empty, formatDate, LoadError, Loading, LoadStatus, Pagination, Table, useLoad } from '../ui';
import { StepCalls } from './step-calls';

const usageOf = ({ usage }: AgentExecution) => (usage ? `${usage.inputTokens} in, ${usage.outputTokens} out` : '–');

/** The agent's runs, newest first: from flows' steps and from tests. */
export const AgentExecutions = ({ agentId }: { agentId: string }) => {
  const [page, setPage] = useState(1);
  const runs = useLoad(
    () => api.get<AgentExecution[]>(`/agents/${agentId}/executions${query({ page })}`),
    [agentId, page],
  );
  return (
    <section aria-label="Runs of the agent">
      <LoadStatus of={runs} />
      {runs.data?.data.length === 0 && <Empty>The agent has not run yet.</Empty>}
      {runs.data && runs.data.data.length > 0 && (
        <>
          <Table columns={['Prompt', 'Status', 'Tokens', 'From', 'Started']} actions={false}>
            {runs.data.data.map((run) => (
              <tr key={run.id}>
                <td>
                  <a href={`/agents/${agentId}/executions/${run.id}`}>{run.prompt.slice(0, 80) || '(no prompt)'}</a>
                </td>
                <td>
                  <Badge status={run.status} />
                </td>
                <td>{usageOf(run)}</td>
                <td>{run.executionId ? <a href={`/executions/${run.executionId}`}>a flow's run</a> : 'a test'}</td>
                <td>{formatDate(run.createdAt)}</td>
              </tr>
            ))}
          </Table>
          <Pagination page={page} totalPages={runs.data.meta.totalPages} onPage={setPage} />
        </>
      )}
    </section>
  );
};

/** One run of the agent: what it was asked, what it answered, and the calls on the way. */
export const AgentExecutionDetail = ({ agentId, executionId }: { agentId: string; executionId: string }) => {
  const run = useLoad(
    () => api.get<AgentExecution>(`/agents/${agentId}/executions/${executionId}`).then((r) => r.data),
    [agentId, executionId],
  );
  if (run.error) return <LoadError errors={run.error} retry={run.reload} />;
  if (!run.data) return <Loading />;
  const current = run.data;
  return (
    <section aria-label="Run of the agent">
      <p>
        <a href={`/agents/${agentId}/executions`}>← All runs</a>
        {current.executionId && (
          <>
            {' '}
            · <a href={`/executions/${current.executionId}`}>Open the flow's run</a>
          </>
        )}
      </p>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <Badge status={current.status} />
        </dd>
        <dt>Started</dt>
        <dd>{formatDate(current.createdAt)}</dd>
        <dt>Finished</dt>
        <dd>{formatDate(current.finishedAt)}</dd>
        <dt>Tokens</dt>
        <dd>{usageOf(current)}</dd>
      </dl>
      <h3>Prompt</h3>
      <p class="agent-text">{current.prompt}</p>
      <h3>Answer</h3>
      <p class="agent-text">{current.output ?? '–'}</p>
      <StepCalls calls={current.calls ?? []} onDecided={run.reload} />
    </section>
  );
};
