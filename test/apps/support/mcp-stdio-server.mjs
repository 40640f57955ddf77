// An MCP server over stdio, built with the SDK, as a command a connection runs: plain JavaScript,
// so that Node starts it at once. Its first argument, when given, is a file it writes its process
// id to, so that a test can see it end.
import { writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const [pidFile] = process.argv.slice(2);
if (pidFile) writeFileSync(pidFile, String(process.pid));

const server = new McpServer({ name: 'example-tools', version: '1.2.3' });
server.registerTool(
  'shout',
  { description: 'Says a text loud.', inputSchema: { text: z.string() } },
  async ({ text }) => ({
    content: [{ type: 'text', text: text.toUpperCase() }],
  }),
);
process.stderr.write('example-tools: ready\n');
await server.connect(new StdioServerTransport());
