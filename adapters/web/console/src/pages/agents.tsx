import { useLocation } from 'preact-iso';
import { api } from '../api';
import type { Agent } from '../types';
import {
  Empty,
  FormErrors,
  formatDate,
  LoadError,
  Loading,
  LoadStatus,
  Page,
  Table,
  Tabs,
  useLoad,
  useRemoval,
} from '../ui';
import { AgentExecutionDetail, AgentExecutions } from './agent-executions';
import { AgentSettingsForm } from './agent-settings';
import { AgentTest } from './agent-test';
import { AgentTools } from './agent-tools';

/** The user's agents: a model, instructions and tools that flows' "Run agent" steps run. */
export const Agents = () => {
  const agents = useLoad(() => api.get<Agent[]>('/agents?perPage=100').then((r) => r.data), []);
  const removal = useRemoval(agents.reload);
  const remove = (agent: Agent) =>
    removal.remove(`Delete the agent “${agent.name}”? Flows whose steps run it will fail.`, `/agents/${agent.id}`);
  return (
    <Page
      title="Agents"
      actions={
        <a class="button primary" href="/agents/create">
          Create agent
        </a>
      }
    >
      <p class="hint">
        An agent asks a language model and lets it call tools (apps’ actions, flows, MCP servers) until it has an
        answer. Flows run one with the Agents app’s “Run agent” step.
      </p>
      <FormErrors errors={removal.errors} />
      <LoadStatus of={agents} />
      {agents.data?.length === 0 && <Empty>No agent yet. Create one, then run it from a flow’s step.</Empty>}
      {agents.data && agents.data.length > 0 && (
        <Table columns={['Name', 'Description', 'Model', 'Updated']}>
          {agents.data.map((agent) => (
            <tr key={agent.id}>
              <td>
                <a href={`/agents/${agent.id}`}>{agent.name}</a>
              </td>
              <td>{agent.description ?? ''}</td>
              <td>{agent.connectionId ? (agent.model ?? 'the default model') : 'no model chosen'}</td>
              <td>{formatDate(agent.updatedAt)}</td>
              <td class="row-actions">
                <button type="button" class="danger" onClick={() => remove(agent)}>
                  Delete<span class="visually-hidden"> {agent.name}</span>
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Page>
  );
};

export const AgentCreate = () => {
  const { route } = useLocation();
  return (
    <Page title="Create agent">
      <p>
        <a href="/agents">← All agents</a>
      </p>
      <AgentSettingsForm
        submitLabel="Create agent"
        onSubmit={async (input) => {
          const { data } = await api.post<Agent>('/agents', input);
          route(`/agents/${data.id}`);
          return data;
        }}
      />
    </Page>
  );
};

/** The sections of an agent's page, each at its own address (Automatisch's paths). */
export type AgentTab = 'tools' | 'settings' | 'executions';

/** An agent: its tools, settings and runs, with a test conversation beside them. */
export const AgentPage = ({
  agentId,
  tab = 'tools',
  executionId,
}: {
  agentId: string;
  tab?: AgentTab;
  executionId?: string;
}) => {
  const agent = useLoad(() => api.get<Agent>(`/agents/${agentId}`).then((r) => r.data), [agentId]);
  if (agent.error) return <LoadError errors={agent.error} retry={agent.reload} />;
  if (!agent.data) return <Loading />;
  const current = agent.data;
  const base = `/agents/${current.id}`;
  const tabs: { name: AgentTab; href: string; label: string }[] = [
    { name: 'tools', href: base, label: 'Tools' },
    { name: 'settings', href: `${base}/settings`, label: 'Settings' },
    { name: 'executions', href: `${base}/executions`, label: 'Runs' },
  ];
  return (
    <Page title={current.name}>
      <p>
        <a href="/agents">← All agents</a>
      </p>
      {current.description && <p>{current.description}</p>}
      {!current.connectionId && (
        <div class="alert alert-error" role="status">
          <p>
            The agent has no model yet: choose its model connection in <a href={`${base}/settings`}>Settings</a>.
          </p>
        </div>
      )}
      <div class="agent-layout">
        <div>
          <Tabs label={`About ${current.name}`} tabs={tabs} current={tab} />
          {tab === 'tools' && <AgentTools agentId={current.id} />}
          {tab === 'settings' && (
            <AgentSettingsForm
              agent={current}
              submitLabel="Save"
              onSubmit={async (input) => {
                const { data } = await api.patch<Agent>(`/agents/${current.id}`, input);
                agent.setData(data);
                return data;
              }}
            />
          )}
          {tab === 'executions' &&
            (executionId ? (
              <AgentExecutionDetail agentId={current.id} executionId={executionId} />
            ) : (
              <AgentExecutions agentId={current.id} />
            ))}
        </div>
        <AgentTest agentId={current.id} />
      </div>
    </Page>
  );
};
