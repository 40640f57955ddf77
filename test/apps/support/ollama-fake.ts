/**
 * A fake Ollama server for the ollama app's tests: `POST /api/chat` (stream false), checked as
 * Ollama does (a model it has, messages of known roles), answered from a script (tool calls
 * without ids, as Ollama gives them), and `GET /api/tags`. With `apiKey`, it wants
 * `Authorization: Bearer <key>` as ollama.com or a proxy would.
 */
import {
  createModelScript,
  type FakeModelVendor,
  fakeModelVendor,
  isScriptedError,
  roughTokens,
  type ScriptedReply,
} from '../../support/fake-model-script.js';
import { type FakeRequest, reply, startFakeVendor } from '../../support/fake-vendor.js';

const MODELS = ['llama3.2:latest', 'qwen3:8b'];

/** What Ollama would refuse in a chat body; null when it is fine. */
export const ollamaRequestProblem = (body: any): string | null => {
  if (typeof body?.model !== 'string' || body.model === '') return 'model is required';
  for (const message of body.messages ?? []) {
    if (!['system', 'user', 'assistant', 'tool'].includes(message.role)) return `invalid role: ${message.role}`;
  }
  return null;
};

const known = (model: string) => MODELS.includes(model) || MODELS.includes(`${model}:latest`);

const answerOf = (scripted: ScriptedReply, body: any) => ({
  model: scripted.model ?? body.model,
  created_at: '2026-01-01T00:00:00Z',
  message: {
    role: 'assistant',
    content: scripted.text ?? '',
    ...(scripted.toolCalls && {
      tool_calls: scripted.toolCalls.map((call) => ({ function: { name: call.name, arguments: call.input } })),
    }),
  },
  done: true,
  done_reason: scripted.finish === 'length' ? 'length' : 'stop',
  total_duration: 1,
  load_duration: 1,
  prompt_eval_count: scripted.usage?.input ?? roughTokens(body.messages),
  prompt_eval_duration: 1,
  eval_count: scripted.usage?.output ?? roughTokens(scripted),
  eval_duration: 1,
});

export type FakeOllama = FakeModelVendor;

export const startFakeOllama = async (options: { readonly apiKey?: string } = {}): Promise<FakeOllama> => {
  const answers = createModelScript();
  const vendor = await startFakeVendor({
    ...(options.apiKey && {
      authorize: (req: FakeRequest) => req.headers.authorization === `Bearer ${options.apiKey}`,
    }),
    unauthorized: reply(401, { error: 'unauthorized' }),
    routes: {
      'POST /api/chat': (req) => {
        const body = req.body as any;
        const problem = ollamaRequestProblem(body);
        if (problem) return reply(400, { error: problem });
        if (body.stream !== false) return reply(400, { error: 'the fake answers stream: false only' });
        if (!known(body.model)) return reply(404, { error: `model '${body.model}' not found` });
        const scripted = answers.next(body);
        if (!scripted) return reply(500, { error: 'fake-ollama: no scripted answer left' });
        if (isScriptedError(scripted)) return reply(scripted.error, { error: scripted.message ?? 'server busy' });
        return answerOf(scripted, body);
      },
      'GET /api/tags': () => ({
        models: MODELS.map((name) => ({
          name,
          model: name,
          modified_at: '2026-01-01T00:00:00Z',
          size: 2_000_000_000,
          digest: 'sha256:fake',
          details: { format: 'gguf', family: 'llama', parameter_size: '3B', quantization_level: 'Q4_K_M' },
        })),
      }),
    },
  });
  return fakeModelVendor(vendor, answers, (r) => r.method === 'POST');
};
