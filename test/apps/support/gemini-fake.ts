/**
 * A fake of the Gemini API (generativelanguage.googleapis.com) for the google-gemini app's tests:
 * `POST /v1beta/models/{model}:generateContent` with the key in `x-goog-api-key`, checked as
 * Gemini does (contents of `user` and `model` turns, a `functionResponse` only for a function the
 * turn before called, function declarations with names and JSON Schemas), scripted answers,
 * errors in Google's shape (a 429 with its `RetryInfo`), and `GET /v1beta/models` by pages.
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

export const FAKE_GEMINI_KEY = 'AIza-fake-gemini-key-0001';

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

const googleError = (status: number, message: string, details: unknown[] = []) =>
  reply(status, { error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN', details } });

const MODELS = [
  { name: 'models/gemini-2.5-flash', displayName: 'Gemini 2.5 Flash', methods: ['generateContent', 'countTokens'] },
  { name: 'models/gemini-2.5-pro', displayName: 'Gemini 2.5 Pro', methods: ['generateContent', 'countTokens'] },
  { name: 'models/text-embedding-004', displayName: 'Text Embedding 004', methods: ['embedContent'] },
];

type Part = Record<string, any>;

/** What the Gemini API would refuse in a generateContent body; null when it is fine. */
export const geminiRequestProblem = (body: any): string | null => {
  if (!Array.isArray(body?.contents) || body.contents.length === 0)
    return '* GenerateContentRequest.contents: contents is not specified';
  for (const [i, content] of body.contents.entries()) {
    if (content.role !== 'user' && content.role !== 'model')
      return `* GenerateContentRequest.contents[${i}].role: Please use a valid role: user, model.`;
    if (!Array.isArray(content.parts) || content.parts.length === 0)
      return `* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`;
    const responses = (content.parts as Part[]).filter((p) => p.functionResponse);
    if (responses.length > 0) {
      const called = new Set(
        ((body.contents[i - 1]?.role === 'model' ? body.contents[i - 1].parts : []) as Part[]).flatMap((p) =>
          p.functionCall ? [p.functionCall.name] : [],
        ),
      );
      const stray = responses.find((p) => !called.has(p.functionResponse.name));
      if (stray) return 'Please ensure that function response turn comes immediately after a function call turn.';
      if (
        responses.some((p) => typeof p.functionResponse.response !== 'object' || p.functionResponse.response === null)
      )
        return `* GenerateContentRequest.contents[${i}].parts.function_response.response: must be an object`;
    }
  }
  for (const tool of body.tools ?? []) {
    for (const [j, declaration] of (tool.functionDeclarations ?? []).entries()) {
      if (typeof declaration.name !== 'string' || !/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$/.test(declaration.name))
        return `* GenerateContentRequest.tools[0].function_declarations[${j}].name: Invalid function name.`;
      if (declaration.parametersJsonSchema !== undefined && declaration.parametersJsonSchema?.type !== 'object')
        return `* GenerateContentRequest.tools[0].function_declarations[${j}].parameters_json_schema: must be an object schema`;
    }
  }
  return null;
};

const answerOf = (scripted: ScriptedReply, model: string, body: any) => {
  const parts = [
    ...(scripted.text ? [{ text: scripted.text }] : []),
    ...(scripted.toolCalls ?? []).map((call) => ({
      // Gemini gives ids on some models only: a scripted call without one has none.
      functionCall: { ...(call.id && { id: call.id }), name: call.name, args: call.input },
      thoughtSignature: 'c2lnbmF0dXJl',
    })),
  ];
  const input = scripted.usage?.input ?? roughTokens(body.contents);
  const output = scripted.usage?.output ?? roughTokens(parts);
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        finishReason: scripted.finish === 'length' ? 'MAX_TOKENS' : 'STOP',
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: input + output },
    modelVersion: scripted.model ?? model,
    responseId: 'fake-response',
  };
};

export interface FakeGemini extends FakeModelVendor {
  readonly apiKey: string;
}

export const startFakeGemini = async (): Promise<FakeGemini> => {
  const answers = createModelScript();
  const vendor = await startFakeVendor({
    authorize: (req) => req.headers['x-goog-api-key'] === FAKE_GEMINI_KEY,
    unauthorized: googleError(400, 'API key not valid. Please pass a valid API key.', [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' },
    ]),
    routes: {
      // The method follows the model after a colon: `gemini-2.5-flash:generateContent`.
      'POST /v1beta/models/:call': (req) => {
        const [model = '', method] = req.params.call?.split(':') ?? [];
        if (method !== 'generateContent') return googleError(404, `Method ${method} not found.`);
        if (!MODELS.some((m) => m.name === `models/${model}`))
          return googleError(404, `models/${model} is not found for API version v1beta.`);
        const problem = geminiRequestProblem(req.body);
        if (problem) return googleError(400, problem);
        const scripted = answers.next(req.body);
        if (!scripted) return googleError(500, 'fake-gemini: no scripted answer left');
        if (isScriptedError(scripted)) {
          const details =
            scripted.retryAfter === undefined
              ? []
              : [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${scripted.retryAfter}s` }];
          return googleError(scripted.error, scripted.message ?? 'You exceeded your current quota.', details);
        }
        return answerOf(scripted, model, req.body);
      },
      'GET /v1beta/models': (req) => {
        const size = Number(req.query.pageSize ?? 50);
        const start = Number(req.query.pageToken ?? 0);
        const page = MODELS.slice(start, start + size).map((m) => ({
          name: m.name,
          displayName: m.displayName,
          supportedGenerationMethods: m.methods,
        }));
        return { models: page, ...(start + size < MODELS.length && { nextPageToken: String(start + size) }) };
      },
    },
  });
  return { ...fakeModelVendor(vendor, answers, (r) => r.method === 'POST'), apiKey: FAKE_GEMINI_KEY };
};
