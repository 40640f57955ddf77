import { useState } from 'preact/hooks';
import { api } from '../api';
import type { AgentTool, AgentToolType, App } from '../types';
import { Empty, FieldError, FormErrors, LoadStatus, useAction, useId, useLoad, useRemoval } from '../ui';
import { ConnectionPicker } from './connection-picker';
import {
  AppSelect,
  Checklist,
  FlowSelect,
  hasCapability,
  KindSelect,
  toolApps,
  useActions,
  useApps,
  useToolFlows,
} from './tool-sources';

/** The triggers of flows an agent may call: a flow called by another, or one made as an MCP tool. */
const AGENT_FLOW_TRIGGERS = ['flows.calledByFlow', 'mcp.mcpTool'];

/** What a flow tool is named in `askFirst`: a flow has one thing to approve. */
const FLOW_ASK_FIRST = 'flow';

const KINDS: { value: AgentToolType; label: string }[] = [
  { value: 'app', label: 'Actions of an app' },
  { value: 'flow', label: 'A flow' },
  { value: 'mcp', label: 'Tools of an MCP server' },
];

/** Which of an MCP server's tools the agent may call, by name (all when none is named). */
const McpToolNames = ({
  value,
  onValue,
  errors,
}: {
  value: string[];
  onValue: (names: string[]) => void;
  errors?: string[];
}) => {
  const id = useId('mcp-tools');
  return (
    <div class="field">
      <label for={id}>Tool names</label>
      <input
        id={id}
        value={value.join(', ')}
        placeholder="all of the server's tools"
        onInput={(e) =>
          onValue(
            e.currentTarget.value
              .split(',')
              .map((name) => name.trim())
              .filter(Boolean),
          )
        }
      />
      <p class="hint">Separated by commas; empty lets the agent call every tool the server offers.</p>
      <FieldError messages={errors} />
    </div>
  );
};

const AddTool = ({ agentId, apps, onAdded }: { agentId: string; apps: App[]; onAdded: () => void }) => {
  const [type, setType] = useState<AgentToolType>('app');
  const [appKey, setAppKey] = useState('');
  const [connectionId, setConnectionId] = useState<string | null>(null);
  const [actions, setActions] = useState<string[]>([]);
  const [flowId, setFlowId] = useState('');
  const [askFirst, setAskFirst] = useState<string[]>([]);
  const { errors, busy, run } = useAction();
  const choices = type === 'mcp' ? apps.filter((app) => hasCapability(app, 'toolbox')) : toolApps(apps);
  const app = apps.find((a) => a.key === appKey) ?? null;
  const definitions = useActions(type === 'app' ? appKey : '');
  const flows = useToolFlows(type === 'flow' ? AGENT_FLOW_TRIGGERS : []);
  const reset = (next: AgentToolType) => {
    setType(next);
    setAppKey('');
    setConnectionId(null);
    setActions([]);
    setFlowId('');
    setAskFirst([]);
  };
  // What may be marked "ask first": the chosen actions or tools, or the flow.
  const approvable =
    type === 'flow'
      ? flowId
        ? [{ value: FLOW_ASK_FIRST, label: 'Calling the flow' }]
        : []
      : actions.map((action) => ({
          value: action,
          label: definitions.data?.find((d) => d.key === action)?.name ?? action,
        }));
  const submit = async (event: Event) => {
    event.preventDefault();
    const body =
      type === 'flow'
        ? { type, flowId, askFirst }
        : { type, appKey, connectionId, actions, askFirst: askFirst.filter((name) => actions.includes(name)) };
    const done = await run(() => api.post<AgentTool>(`/agents/${agentId}/tools`, body));
    if (done) {
      reset(type);
      onAdded();
    }
  };
  return (
    <form class="subcard" aria-label="Add a tool" onSubmit={submit}>
      <h3>Add a tool</h3>
      <FormErrors errors={errors} fields={['type', 'appKey', 'connectionId', 'actions', 'flowId', 'askFirst']} />
      <KindSelect kinds={KINDS} value={type} onValue={reset} />
      {type === 'flow' ? (
        <>
          <LoadStatus of={flows} />
          <FlowSelect
            flows={flows.data ?? []}
            value={flowId}
            onValue={setFlowId}
            errors={errors.flowId}
            hint="A published flow that starts with “Called by another flow” or the MCP app’s “MCP tool”: the agent calls it with the trigger’s inputs and gets what it responds."
          />
        </>
      ) : (
        <>
          <AppSelect
            label={type === 'mcp' ? 'MCP client app' : 'App'}
            apps={choices}
            value={appKey}
            onValue={(key) => {
              setAppKey(key);
              setConnectionId(null);
              setActions([]);
              setAskFirst([]);
            }}
            errors={errors.appKey}
          />
          {app?.supportsConnections && (
            <ConnectionPicker app={app} value={connectionId} onValue={setConnectionId} errors={errors.connectionId} />
          )}
          {type === 'app' && app && (
            <>
              <LoadStatus of={definitions} />
              {definitions.data && (
                <Checklist
                  legend="Actions the agent may call"
                  choices={definitions.data.map((d) => ({ value: d.key, label: d.name, description: d.description }))}
                  chosen={actions}
                  onChosen={setActions}
                  errors={errors.actions}
                />
              )}
            </>
          )}
          {type === 'mcp' && app && <McpToolNames value={actions} onValue={setActions} errors={errors.actions} />}
        </>
      )}
      {approvable.length > 0 && (
        <Checklist
          legend="Ask first"
          hint="A person approves each call of these before it runs (in the run's execution page)."
          choices={approvable}
          chosen={askFirst}
          onChosen={setAskFirst}
          errors={errors.askFirst}
        />
      )}
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          Add tool
        </button>
      </div>
    </form>
  );
};

/** An agent's tools: what it may call, which of those wait for a person, and adding and removing them. */
export const AgentTools = ({ agentId }: { agentId: string }) => {
  const tools = useLoad(() => api.get<AgentTool[]>(`/agents/${agentId}/tools`).then((r) => r.data), [agentId]);
  const apps = useApps();
  const flows = useToolFlows(AGENT_FLOW_TRIGGERS);
  const removal = useRemoval(tools.reload);
  const appName = (key: string | null) => apps.data?.find((app) => app.key === key)?.name ?? key ?? '';
  const title = (tool: AgentTool) =>
    tool.type === 'flow'
      ? `Flow: ${flows.data?.find((flow) => flow.id === tool.flowId)?.name ?? tool.flowId}`
      : `${appName(tool.appKey)}${tool.type === 'mcp' ? ' (MCP)' : ''}`;
  const remove = (tool: AgentTool) =>
    removal.remove(`Remove the tool “${title(tool)}” from the agent?`, `/agents/${agentId}/tools/${tool.id}`);
  return (
    <section aria-label="Tools">
      <FormErrors errors={removal.errors} />
      <LoadStatus of={tools} />
      {tools.data?.length === 0 && <Empty>No tool yet: the agent only answers from what the model knows.</Empty>}
      {tools.data && tools.data.length > 0 && (
        <ul class="agent-tools">
          {tools.data.map((tool) => (
            <li key={tool.id} class="subcard" aria-label={title(tool)}>
              <div class="step-definition-header">
                <h3>{title(tool)}</h3>
                <button type="button" class="danger small" onClick={() => remove(tool)}>
                  Remove<span class="visually-hidden"> {title(tool)}</span>
                </button>
              </div>
              {tool.type !== 'flow' && (
                <p>
                  {tool.actions.length
                    ? tool.actions.map((action) => (
                        <span class="chip chip-static" key={action}>
                          {action}
                          {tool.askFirst.includes(action) ? ' · ask first' : ''}
                        </span>
                      ))
                    : 'Every tool'}
                </p>
              )}
              {tool.type === 'flow' && tool.askFirst.length > 0 && <p class="tag">ask first</p>}
            </li>
          ))}
        </ul>
      )}
      {apps.data && <AddTool agentId={agentId} apps={apps.data} onAdded={tools.reload} />}
    </section>
  );
};
