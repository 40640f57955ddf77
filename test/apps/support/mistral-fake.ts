/**
 * A fake of Mistral's API (api.mistral.ai) for the mistral-ai app's tests: `POST /v1/chat/completions`
 * with a bearer key, checked as Mistral does (a model, messages of known roles, a tool message
 * answering a call of the assistant message before it by its `tool_call_id`), scripted answers in
 * the OpenAI-like shape Mistral answers, its errors, and `GET /v1/models`.
 */
import {
  createModelScript,
  type FakeModelVendor,
  fakeModelVendor,
  isScriptedError,
  roughTokens,
  type ScriptedReply,
} from '../../support/fake-model-script.js';
import { reply, startFakeVendor } from '../../support/fake-vendor.js';

export const FAKE_MISTRAL_KEY = 'mistral-fake-key-0001';

const mistralError = (status: number, message: string, headers: Record<string, string> = {}) =>
  reply(
    status,
    { object: 'error', message, type: 'invalid_request_error', param: null, code: String(status) },
    headers,
  );

/** What Mistral would refuse in a chat completion body; null when it is fine. */
export const mistralRequestProblem = (body: any): string | null => {
  if (typeof body?.model !== 'string') return 'body.model: Field required';
  if (!Array.isArray(body.messages) || body.messages.length === 0) return 'body.messages: Field required';
  const calls = new Set<string>();
  for (const [i, message] of body.messages.entries()) {
    if (!['system', 'user', 'assistant', 'tool'].includes(message.role))
      return `body.messages.${i}.role: Input should be 'system', 'user', 'assistant' or 'tool'`;
    for (const call of message.tool_calls ?? []) {
      if (typeof call.function?.arguments !== 'string' && typeof call.function?.arguments !== 'object')
        return `body.messages.${i}.tool_calls: arguments are required`;
      calls.add(call.id);
    }
    if (message.role === 'tool' && !calls.has(message.tool_call_id))
      return `Unexpected tool call id ${message.tool_call_id} in tool results`;
  }
  for (const [j, tool] of (body.tools ?? []).entries()) {
    if (tool.type !== 'function' || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.function?.name ?? ''))
      return `body.tools.${j}.function.name: Function name must be a-z, A-Z, 0-9, or contain underscores and dashes`;
  }
  return null;
};

let callNumber = 0;

const answerOf = (scripted: ScriptedReply, body: any) => {
  const toolCalls = (scripted.toolCalls ?? []).map((call, index) => ({
    // Mistral's call ids are nine letters and digits.
    id: call.id ?? `c${String(++callNumber).padStart(8, '0')}`,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.input) },
    index,
  }));
  const prompt = scripted.usage?.input ?? roughTokens(body.messages);
  const completion = scripted.usage?.output ?? roughTokens([scripted.text, toolCalls]);
  return {
    id: 'cmpl-fake',
    object: 'chat.completion',
    created: 1_760_000_000,
    model: scripted.model ?? body.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: scripted.text ?? '',
          tool_calls: toolCalls.length > 0 ? toolCalls : null,
        },
        finish_reason: scripted.finish === 'length' ? 'length' : toolCalls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
};

export interface FakeMistral extends FakeModelVendor {
  readonly apiKey: string;
}

export const startFakeMistral = async (): Promise<FakeMistral> => {
  const answers = createModelScript();
  const vendor = await startFakeVendor({
    authorize: (req) => req.headers.authorization === `Bearer ${FAKE_MISTRAL_KEY}`,
    unauthorized: reply(401, { message: 'Unauthorized', request_id: 'fake-request' }),
    routes: {
      'POST /v1/chat/completions': (req) => {
        const problem = mistralRequestProblem(req.body);
        if (problem) return mistralError(400, problem);
        const scripted = answers.next(req.body);
        if (!scripted) return mistralError(500, 'fake-mistral: no scripted answer left');
        if (isScriptedError(scripted)) {
          const headers: Record<string, string> =
            scripted.retryAfter === undefined ? {} : { 'retry-after': String(scripted.retryAfter) };
          return mistralError(scripted.error, scripted.message ?? 'Requests rate limit exceeded', headers);
        }
        return answerOf(scripted, req.body);
      },
      'GET /v1/models': () => ({
        object: 'list',
        data: [
          { id: 'mistral-large-latest', capabilities: { completion_chat: true, function_calling: true } },
          { id: 'mistral-small-latest', capabilities: { completion_chat: true, function_calling: true } },
          { id: 'mistral-embed', capabilities: { completion_chat: false } },
        ].map((model) => ({ ...model, object: 'model', owned_by: 'mistralai', type: 'base' })),
      }),
    },
  });
  return { ...fakeModelVendor(vendor, answers, (r) => r.method === 'POST'), apiKey: FAKE_MISTRAL_KEY };
};
