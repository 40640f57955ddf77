import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callApi as api, newWebhookFlow } from '../support/api-client.js';
import { DIALECTS } from '../support/databases.js';
import { answer, type FakeAnswer, type FakeChatRequest, startFakeOpenAi } from '../support/fake-openai.js';
import { listeningPort, processDatabase, startServerProcess } from '../support/server-process.js';

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** A loopback service that counts the requests an agent's HTTP tool makes, with their idempotency keys. */
const startSink = async () => {
  const keys: string[] = [];
  const server = createServer((req, res) => {
    keys.push(String(req.headers['idempotency-key']));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"booked":true}');
  });
  return { ...(await listen(server)), keys };
};

/** A stateless Streamable HTTP MCP server (built with the SDK) whose one tool counts its calls. */
const startCountingMcpServer = async () => {
  const calls: string[] = [];
  const server = createServer((req, res) => {
    const mcp = new McpServer({ name: 'stock', version: '1.0.0' });
    mcp.registerTool(
      'reserve',
      { description: 'Reserves an item of stock.', inputSchema: { item: z.string() } },
      async ({ item }) => {
        calls.push(item);
        return { content: [{ type: 'text', text: `reserved ${item} (#${calls.length})` }] };
      },
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    mcp
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  return { ...(await listen(server)), calls };
};

const toolAnswers = (request: FakeChatRequest) => request.body.messages.filter((m) => m.role === 'tool');

/**
 * The agent's model, played from the conversation it is sent (so that a step run again gets the
 * same turn): it books over HTTP, then reserves over MCP, then answers. Its answer after the first
 * tool waits for `release` while `hold` is on: the first process is killed while it thinks.
 */
const agentScript = (sinkUrl: string) => {
  let hold = true;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let reachedHold: () => void = () => {};
  const heldReached = new Promise<void>((resolve) => {
    reachedHold = resolve;
  });
  const next = async (request: FakeChatRequest): Promise<FakeAnswer> => {
    const answered = toolAnswers(request);
    const names = (request.body.tools ?? []).map((tool) => tool.function.name);
    if (answered.length === 0) {
      const book = names.find((name) => name.startsWith('http-request_')) ?? 'missing_http_tool';
      return answer.toolCalls([
        { id: 'book', name: book, arguments: { method: 'POST', url: `${sinkUrl}/book`, data: '{"room":"4"}' } },
      ]);
    }
    if (answered.length === 1) {
      if (hold) {
        reachedHold();
        await held;
      }
      const reserve = names.find((name) => name.endsWith('_reserve')) ?? 'missing_mcp_tool';
      return answer.toolCalls([{ id: 'reserve', name: reserve, arguments: { item: 'projector' } }]);
    }
    return answer.text(`All set: ${answered.map((m) => String(m.content)).join(' | ')}`);
  };
  return {
    next,
    heldReached,
    /** Answers from now on, and lets go of the answer held for the killed process. */
    stopHolding() {
      hold = false;
      release();
    },
  };
};

/**
 * An agent step run by a real server process, on both databases: its model (a fake of OpenAI's API)
 * calls a Conveyor action tool and an MCP server's tool; the process is killed after the first tool
 * call, while the model thinks, and the next process finishes the run (the MCP call included)
 * without calling the first tool again.
 */
describe.each(DIALECTS)('an agent step across a crash (%s)', (dialect) => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('finishes the run in the next process without repeating a finished tool call', { timeout: 240_000 }, async () => {
    const sink = await startSink();
    cleanups.push(() => sink.close());
    const stock = await startCountingMcpServer();
    cleanups.push(() => stock.close());
    const script = agentScript(sink.url);
    const openai = await startFakeOpenAi({ fallback: script.next });
    cleanups.push(() => openai.close());
    cleanups.push(() => script.stopHolding());
    const env = {
      ...(await processDatabase(dialect, cleanups)),
      ENCRYPTION_KEY: 'c'.repeat(64),
      ALLOW_PRIVATE_NETWORKS: 'true',
      APP_BASE_URL_OPENAI: `${openai.url}/v1`,
      EXECUTION_LEASE_SECONDS: '3',
    };
    const launch = () => {
      const started = startServerProcess(env);
      cleanups.push(() => {
        started.child.kill('SIGKILL');
      });
      return { ...started, port: listeningPort(started, 60_000) };
    };

    const first = launch();
    const base = `http://127.0.0.1:${await first.port}`;
    const admin = { email: 'agent-crash@example.com', password: 'a long password', fullName: 'Agent' };
    const { token, flowId, triggerId, actionId } = await newWebhookFlow(base, admin);
    const connect = async (appKey: string, formattedData: Record<string, string>) => {
      const made = (await api(base, 'POST', `/apps/${appKey}/connections`, token, { formattedData })).data;
      await api(base, 'POST', `/connections/${made.id}/verify`, token);
      return made.id as string;
    };
    const model = await connect('openai', { screenName: 'Fake', apiKey: openai.auth.apiKey });
    const toolbox = await connect('mcp-client', { transport: 'http', serverUrl: `${stock.url}/mcp` });
    const agent = (
      await api(base, 'POST', '/agents', token, {
        name: 'Concierge',
        instructions: 'Book the room, then reserve what the meeting needs.',
        connectionId: model,
        model: 'gpt-4o-mini',
      })
    ).data;
    await api(base, 'POST', `/agents/${agent.id}/tools`, token, {
      type: 'app',
      appKey: 'http-request',
      actions: ['customRequest'],
    });
    await api(base, 'POST', `/agents/${agent.id}/tools`, token, {
      type: 'mcp',
      appKey: 'mcp-client',
      connectionId: toolbox,
      actions: ['reserve'],
    });
    await api(base, 'PATCH', `/steps/${actionId}`, token, {
      appKey: 'agents',
      key: 'runAgent',
      parameters: { agentId: agent.id, prompt: `Prepare meeting {{step.${triggerId}.body.meeting}}` },
    });
    await api(base, 'PATCH', `/flows/${flowId}/status`, token, { active: true });

    const ack = await fetch(`${base}/webhooks/flows/${flowId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ meeting: 'Q4' }),
    });
    expect(ack.status).toBe(204);
    await script.heldReached;
    first.child.kill('SIGKILL');
    await first.exited;
    expect(sink.keys).toHaveLength(1);
    expect(stock.calls).toEqual([]);
    script.stopHolding();

    const second = launch();
    const base2 = `http://127.0.0.1:${await second.port}`;
    const token2 = (await api(base2, 'POST', '/access-tokens', undefined, admin)).data.token;
    let executions: Array<{ id: string; status: string }> = [];
    for (let i = 0; i < 600; i++) {
      executions = (await api(base2, 'GET', `/executions?flowId=${flowId}`, token2)).data;
      if (executions.length === 1 && executions[0]?.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(executions.map((e) => e.status)).toEqual(['success']);
    const run = executions[0] as { id: string };

    // The HTTP tool did not run again (the journal gave its answer); the MCP tool ran once, in the second process.
    expect(sink.keys).toHaveLength(1);
    expect(stock.calls).toEqual(['projector']);
    const detail = (await api(base2, 'GET', `/executions/${run.id}`, token2)).data;
    const agentStep = detail.steps.find((s: { stepId: string }) => s.stepId === actionId);
    expect(agentStep.dataOut.output).toMatch(
      /^All set: \{"data":\{"booked":true\}.*"status":200\} \| .*"reserved projector \(#1\)"/,
    );
    const calls: Array<{ kind: string; name: string; status: string; seq: number }> = (
      await api(base2, 'GET', `/executions/${run.id}/calls`, token2)
    ).data;
    expect(calls.map((c) => [c.seq, c.kind, c.status])).toEqual([
      [0, 'model', 'success'],
      [1, 'tool', 'success'],
      [2, 'model', 'success'],
      [3, 'tool', 'success'],
      [4, 'model', 'success'],
    ]);
    expect(calls.filter((c) => c.kind === 'tool').map((c) => c.name)).toEqual([
      'http-request_customRequest',
      'mcp-client_reserve',
    ]);
    // The first turn was asked once; the held one again by the second process (and maybe more: a
    // model call cut off is made again, e.g. when a loaded machine let a lease lapse); the last once.
    const turns = openai.chatRequests.map((r) => toolAnswers(r).length);
    expect(turns[0]).toBe(0);
    expect(turns.filter((answered) => answered === 0)).toHaveLength(1);
    expect(turns.filter((answered) => answered === 1).length).toBeGreaterThanOrEqual(2);
    expect(turns.filter((answered) => answered === 2).length).toBeGreaterThanOrEqual(1);
    // The HTTP tool's request carried the run's idempotency key for that call.
    expect(sink.keys[0]).toMatch(new RegExp(`^${run.id}:`));
    process.stdout.write(
      `agent crash (${dialect}): killed while the model thought after the first tool call; resumed, 0 tool calls repeated\n`,
    );
  });
});
