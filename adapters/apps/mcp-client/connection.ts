import { dropdown, fieldsAuth, httpUrl, matches, text } from '../sdk/index.js';
import { type McpSettings, withMcpClient } from './client.js';
import { listAllTools } from './tools.js';

/** An HTTP header name (RFC 9110's token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const fields = {
  transport: dropdown({
    label: 'Transport',
    required: true,
    default: 'http',
    options: [
      { label: 'HTTP (Streamable HTTP, or SSE)', value: 'http' },
      { label: 'Command (stdio)', value: 'stdio' },
    ],
    description: 'Commands run on the Conveyor server, only where its administrator allows them (MCP_STDIO_ALLOWED).',
  }),
  serverUrl: text({
    label: 'Server URL',
    placeholder: 'https://mcp.example.com/mcp',
    description: "The MCP server's endpoint (HTTP transport).",
    check: httpUrl,
  }),
  headerName: text({
    label: 'Auth header name',
    default: 'Authorization',
    check: matches(HEADER_NAME, 'must be an HTTP header name.'),
  }),
  headerValue: text({
    label: 'Auth header value',
    secret: true,
    placeholder: 'Bearer …',
    description: 'Sent with every request to the server (HTTP transport); none when empty.',
  }),
  command: text({ label: 'Command', placeholder: 'npx', description: 'The program to run (stdio transport).' }),
  args: text({
    label: 'Arguments',
    placeholder: '-y\n@modelcontextprotocol/server-everything',
    description: "The command's arguments, one per line (stdio transport).",
  }),
};

/** The connection's fields: how to reach one MCP server. */
export const mcpAuth = (settings: McpSettings) =>
  fieldsAuth({
    fields,
    async verify(ctx) {
      const connection = ctx.auth.data;
      return withMcpClient(ctx, connection, settings, async (session) => {
        await listAllTools(session);
        const server = session.client.getServerVersion()?.name ?? 'MCP server';
        const where = connection.transport === 'stdio' ? connection.command : new URL(connection.serverUrl ?? '').host;
        return { screenName: `${server} (${where})` };
      });
    },
  });
