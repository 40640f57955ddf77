import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api } from '../api';
import type { McpServer } from '../types';
import {
  Empty,
  FormErrors,
  formatDate,
  InputField,
  LoadStatus,
  Page,
  Table,
  useAction,
  useLoad,
  useRemoval,
} from '../ui';
import { rememberSecret } from './mcp-server-connect';

/** The user's MCP servers: sets of tools that MCP clients (Claude Desktop, IDEs, agents) call. */
export const McpServers = () => {
  const { route } = useLocation();
  const servers = useLoad(() => api.get<McpServer[]>('/mcp-servers').then((r) => r.data), []);
  const [name, setName] = useState('');
  const create = useAction();
  const removal = useRemoval(servers.reload);
  const remove = (server: McpServer) =>
    removal.remove(
      `Delete the MCP server “${server.name}”? Clients that use its address lose its tools.`,
      `/mcp-servers/${server.id}`,
    );
  return (
    <Page title="MCP servers">
      <p class="hint">
        An MCP server offers apps’ actions and flows as tools to MCP clients, such as Claude Desktop or an IDE’s
        assistant, at an address that holds its secret token.
      </p>
      <form
        class="inline"
        aria-label="Create MCP server"
        onSubmit={async (event) => {
          event.preventDefault();
          const created = await create.run(() => api.post<McpServer>('/mcp-servers', { name }));
          if (!created) return;
          // The token comes only in this answer: the server's page shows it once.
          rememberSecret(created.data);
          route(`/mcp-servers/${created.data.id}/connect`);
        }}
      >
        <InputField label="Name" name="name" value={name} onValue={setName} errors={create.errors} required />
        <button type="submit" class="primary" disabled={create.busy}>
          Create MCP server
        </button>
      </form>
      <FormErrors errors={{ ...removal.errors, ...create.errors }} fields={['name']} />
      <LoadStatus of={servers} />
      {servers.data?.length === 0 && <Empty>No MCP server yet.</Empty>}
      {servers.data && servers.data.length > 0 && (
        <Table columns={['Name', 'Created']}>
          {servers.data.map((server) => (
            <tr key={server.id}>
              <td>
                <a href={`/mcp-servers/${server.id}`}>{server.name}</a>
              </td>
              <td>{formatDate(server.createdAt)}</td>
              <td class="row-actions">
                <button type="button" class="danger" onClick={() => remove(server)}>
                  Delete<span class="visually-hidden"> {server.name}</span>
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Page>
  );
};
