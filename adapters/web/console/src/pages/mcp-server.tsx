import { useState } from 'preact/hooks';
import { api, query } from '../api';
import type { App, McpServer, McpTool, McpToolExecution } from '../types';
import {
  Badge,
  Empty,
  FieldError,
  FormErrors,
  formatDate,
  InputField,
  Json,
  LoadError,
  Loading,
  LoadStatus,
  Page,
  Pagination,
  Table,
  Tabs,
  useAction,
  useId,
  useLoad,
  useRemoval,
} from '../ui';
import { ConnectionPicker } from './connection-picker';
import { McpServerConnect } from './mcp-server-connect';
import { AppSelect, FlowSelect, KindSelect, toolApps, useActions, useApps, useToolFlows } from './tool-sources';

/** The trigger of flows an MCP server offers as tools: its inputs are the tool's. */
const MCP_FLOW_TRIGGERS = ['mcp.mcpTool'];

const KINDS: { value: McpTool['type']; label: string }[] = [
  { value: 'app', label: 'An app’s action' },
  { value: 'flow', label: 'A flow' },
];

const AddMcpTool = ({ serverId, apps, onAdded }: { serverId: string; apps: App[]; onAdded: () => void }) => {
  const [type, setType] = useState<McpTool['type']>('app');
  const [appKey, setAppKey] = useState('');
  const [connectionId, setConnectionId] = useState<string | null>(null);
  const [action, setAction] = useState('');
  const [flowId, setFlowId] = useState('');
  const { errors, busy, run } = useAction();
  const actionId = useId('mcp-tool-action');
  const app = apps.find((a) => a.key === appKey) ?? null;
  const definitions = useActions(type === 'app' ? appKey : '');
  const flows = useToolFlows(type === 'flow' ? MCP_FLOW_TRIGGERS : []);
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = type === 'flow' ? { type, flowId } : { type, appKey, connectionId, action };
    const done = await run(() => api.post<McpTool>(`/mcp-servers/${serverId}/tools`, body));
    if (done) {
      setAction('');
      setFlowId('');
      onAdded();
    }
  };
  return (
    <form class="subcard" aria-label="Add a tool" onSubmit={submit}>
      <h3>Add a tool</h3>
      <FormErrors errors={errors} fields={['type', 'appKey', 'connectionId', 'action', 'flowId']} />
      <KindSelect kinds={KINDS} value={type} onValue={setType} />
      {type === 'flow' ? (
        <>
          <LoadStatus of={flows} />
          <FlowSelect
            flows={flows.data ?? []}
            value={flowId}
            onValue={setFlowId}
            errors={errors.flowId}
            hint="A published flow that starts with the MCP app’s “MCP tool” trigger: its name, description and input schema make the tool, and what the flow responds is its result."
          />
        </>
      ) : (
        <>
          <AppSelect
            label="App"
            apps={toolApps(apps)}
            value={appKey}
            onValue={(key) => {
              setAppKey(key);
              setConnectionId(null);
              setAction('');
            }}
            errors={errors.appKey}
          />
          {app?.supportsConnections && (
            <ConnectionPicker app={app} value={connectionId} onValue={setConnectionId} errors={errors.connectionId} />
          )}
          {app && (
            <div class="field">
              <label for={actionId}>Action</label>
              <select id={actionId} value={action} onChange={(e) => setAction(e.currentTarget.value)}>
                <option value="">{definitions.loading ? 'Loading…' : 'Choose an action…'}</option>
                {definitions.data?.map((definition) => (
                  <option key={definition.key} value={definition.key}>
                    {definition.name}
                  </option>
                ))}
              </select>
              <FieldError messages={errors.action} />
            </div>
          )}
        </>
      )}
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          Add tool
        </button>
      </div>
    </form>
  );
};

const useTools = (serverId: string) =>
  useLoad(() => api.get<McpTool[]>(`/mcp-servers/${serverId}/tools`).then((r) => r.data), [serverId]);

/** A tool as people know it: the app and its action, or the flow. */
const useToolTitle = (apps: readonly App[] | null) => {
  const flows = useToolFlows(MCP_FLOW_TRIGGERS);
  return (tool: McpTool) =>
    tool.type === 'flow'
      ? `Flow: ${flows.data?.find((flow) => flow.id === tool.flowId)?.name ?? tool.action}`
      : `${apps?.find((app) => app.key === tool.appKey)?.name ?? tool.appKey}: ${tool.action}`;
};

const McpTools = ({ server }: { server: McpServer }) => {
  const tools = useTools(server.id);
  const apps = useApps();
  const title = useToolTitle(apps.data);
  const removal = useRemoval(tools.reload);
  const remove = (tool: McpTool) =>
    removal.remove(`Remove the tool “${title(tool)}”?`, `/mcp-servers/${server.id}/tools/${tool.id}`);
  return (
    <section aria-label="Tools">
      <FormErrors errors={removal.errors} />
      <LoadStatus of={tools} />
      {tools.data?.length === 0 && <Empty>No tool yet: clients see an empty list.</Empty>}
      {tools.data && tools.data.length > 0 && (
        <Table columns={['Tool', 'Added']}>
          {tools.data.map((tool) => (
            <tr key={tool.id}>
              <td>{title(tool)}</td>
              <td>{formatDate(tool.createdAt)}</td>
              <td class="row-actions">
                <button type="button" class="danger" onClick={() => remove(tool)}>
                  Remove<span class="visually-hidden"> {title(tool)}</span>
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {apps.data && <AddMcpTool serverId={server.id} apps={apps.data} onAdded={tools.reload} />}
    </section>
  );
};

/** The latest calls of the server's tools by clients, with what went in and came out. */
const McpToolExecutions = ({ server }: { server: McpServer }) => {
  const [page, setPage] = useState(1);
  const runs = useLoad(
    () => api.get<McpToolExecution[]>(`/mcp-servers/${server.id}/executions${query({ page })}`),
    [server.id, page],
  );
  const tools = useTools(server.id);
  const title = useToolTitle(useApps().data);
  const toolName = (toolId: string) => {
    const tool = tools.data?.find((t) => t.id === toolId);
    return tool ? title(tool) : 'A tool since removed';
  };
  return (
    <section aria-label="Tool calls">
      <LoadStatus of={runs} />
      {runs.data?.data.length === 0 && <Empty>No client has called a tool yet.</Empty>}
      {runs.data?.data.map((run) => (
        <details key={run.id} class="subcard">
          <summary>
            <Badge status={run.status} /> {toolName(run.mcpToolId)} · {formatDate(run.createdAt)}
          </summary>
          {run.executionId && (
            <p>
              <a href={`/executions/${run.executionId}`}>Open the flow’s run</a>
            </p>
          )}
          <div class="grid-2">
            <Json label="Input" value={run.dataIn} />
            <Json label={run.status === 'failure' ? 'Error' : 'Output'} value={run.errorDetails ?? run.dataOut} />
          </div>
        </details>
      ))}
      {runs.data && <Pagination page={page} totalPages={runs.data.meta.totalPages} onPage={setPage} />}
    </section>
  );
};

const Rename = ({ server, onRenamed }: { server: McpServer; onRenamed: (server: McpServer) => void }) => {
  const [name, setName] = useState(server.name);
  const { errors, busy, run } = useAction();
  return (
    <form
      class="inline"
      aria-label="Rename"
      onSubmit={async (event) => {
        event.preventDefault();
        const answer = await run(() => api.patch<McpServer>(`/mcp-servers/${server.id}`, { name }));
        if (answer) onRenamed(answer.data);
      }}
    >
      <InputField label="Name" name="name" value={name} onValue={setName} errors={errors} required />
      <button type="submit" disabled={busy || name === server.name}>
        Rename
      </button>
    </form>
  );
};

/** The sections of an MCP server's page, each at its own address (Automatisch's paths). */
export type McpServerTab = 'tools' | 'connect' | 'executions';

export const McpServerPage = ({ mcpServerId, tab = 'tools' }: { mcpServerId: string; tab?: McpServerTab }) => {
  const server = useLoad(() => api.get<McpServer>(`/mcp-servers/${mcpServerId}`).then((r) => r.data), [mcpServerId]);
  if (server.error) return <LoadError errors={server.error} retry={server.reload} />;
  if (!server.data) return <Loading />;
  const current = server.data;
  const base = `/mcp-servers/${current.id}`;
  const tabs: { name: McpServerTab; href: string; label: string }[] = [
    { name: 'tools', href: `${base}/tools`, label: 'Tools' },
    { name: 'connect', href: `${base}/connect`, label: 'Connect a client' },
    { name: 'executions', href: `${base}/executions`, label: 'Tool calls' },
  ];
  return (
    <Page title={current.name}>
      <p>
        <a href="/mcp-servers">← All MCP servers</a>
      </p>
      <Rename server={current} onRenamed={server.setData} />
      <Tabs label={`About ${current.name}`} tabs={tabs} current={tab} />
      {tab === 'tools' && <McpTools server={current} />}
      {tab === 'connect' && <McpServerConnect server={current} />}
      {tab === 'executions' && <McpToolExecutions server={current} />}
    </Page>
  );
};
