import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** An MCP server with a few tools that show each case of the client: built with the SDK. */
export const exampleMcpServer = () => {
  const server = new McpServer({ name: 'example-tools', version: '1.2.3' });
  server.registerTool(
    'echo',
    {
      title: 'Echo',
      description: 'Repeats a text.',
      inputSchema: {
        text: z.string().describe('What to repeat.'),
        times: z.number().int().optional(),
        loud: z.boolean().optional(),
        mood: z.enum(['calm', 'glad']).optional(),
        meta: z.object({ tag: z.string() }).optional(),
      },
    },
    async ({ text, times, loud, mood, meta }) => {
      const said = (loud ? text.toUpperCase() : text).repeat(times ?? 1);
      return { content: [{ type: 'text', text: said }], structuredContent: { said, mood: mood ?? null, meta } };
    },
  );
  server.registerTool(
    'add',
    {
      description: 'Adds two numbers.',
      inputSchema: { a: z.number(), b: z.number() },
      outputSchema: { sum: z.number() },
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'the disk is full' }],
    isError: true,
  }));
  server.registerTool(
    'files.read',
    { description: 'A name models cannot use as it is.', inputSchema: { path: z.string() } },
    async ({ path }) => ({ content: [{ type: 'text', text: `contents of ${path}` }] }),
  );
  server.registerTool(
    'configure',
    {
      description: 'Has a property named as the step argument `arguments`.',
      inputSchema: { arguments: z.array(z.string()), mode: z.string() },
    },
    async (input) => ({ content: [{ type: 'text', text: JSON.stringify(input) }] }),
  );
  server.registerTool('slow', { description: 'Answers after two seconds.', inputSchema: {} }, async (_input, extra) => {
    await sleep(2_000, undefined, { signal: extra.signal }).catch(() => {});
    return { content: [{ type: 'text', text: 'done' }] };
  });
  return server;
};

export interface McpHttpServerOptions {
  /** A header every request must carry (name in lower case), else 401. */
  readonly requireHeader?: readonly [string, string];
  /** Speak only the protocol's 2024 HTTP+SSE transport: GET /mcp opens the stream, POST answers 405. */
  readonly legacySse?: boolean;
}

const unauthorized = (res: ServerResponse) => {
  res.writeHead(401, { 'content-type': 'text/plain' });
  res.end('a valid API key is required');
};

/**
 * A Streamable HTTP MCP server on 127.0.0.1 (`/mcp`), keeping a session per client as the SDK's
 * stateful servers do; `openSessions()` tells how many clients have not ended theirs.
 */
export const startMcpHttpServer = async (options: McpHttpServerOptions = {}) => {
  const sessions = new Map<string, StreamableHTTPServerTransport | SSEServerTransport>();
  const streamable = async (req: IncomingMessage, res: ServerResponse) => {
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known instanceof StreamableHTTPServerTransport) return known.handleRequest(req, res);
    if (id !== undefined) return void res.writeHead(404).end();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
      onsessionclosed: (sessionId) => void sessions.delete(sessionId),
    });
    await exampleMcpServer().connect(transport);
    await transport.handleRequest(req, res);
  };
  // The protocol's 2024 transport: a GET opens the event stream, whose first event names where to POST.
  const legacy = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    if (req.method === 'GET' && url.pathname === '/mcp') {
      const transport = new SSEServerTransport('/messages', res);
      sessions.set(transport.sessionId, transport);
      res.on('close', () => sessions.delete(transport.sessionId));
      await exampleMcpServer().connect(transport);
      return;
    }
    const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
    if (req.method === 'POST' && url.pathname === '/messages' && transport instanceof SSEServerTransport)
      return transport.handlePostMessage(req, res);
    res.writeHead(405).end();
  };
  const server = createServer((req, res) => {
    const [name, value] = options.requireHeader ?? [];
    if (name && req.headers[name] !== value) return unauthorized(res);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const handled = options.legacySse
      ? legacy(req, res, url)
      : url.pathname === '/mcp'
        ? streamable(req, res)
        : Promise.resolve(void res.writeHead(404).end());
    handled.catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    openSessions: () => sessions.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export type McpHttpServer = Awaited<ReturnType<typeof startMcpHttpServer>>;
