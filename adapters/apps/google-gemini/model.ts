import type { Content, FunctionCall, GenerateContentParameters, GenerateContentResponse, Part } from '@google/genai';
import type { ChatAnswer, ChatMessage, ChatRequest, LanguageModel } from '../../../ports/language-model.js';
import { newToolCallId, systemInstruction, toolArguments } from '../llm-common/chat-parts.js';
import { type GeminiAccess, withGemini } from './client.js';

export const GEMINI_DEFAULT_MODEL = 'gemini-2.5-flash';

/**
 * Ids this app made for calls Gemini gave none: they name the call for the agent, and are not sent
 * back to Gemini, which matches answers to calls by name and order then.
 */
const MADE_ID = 'gemini_';

/**
 * Gemini's thinking models want the thought signature of each of their calls back with it. Calls
 * come back here without one (the port keeps no vendor data), so they carry the value Google's
 * documentation gives for calls whose signature is not at hand.
 */
const NO_SIGNATURE = 'skip_thought_signature_validator';

/** A tool's answer as the object Gemini takes: `{ output }` of the JSON it holds, or of its text. */
const responseOf = (content: string): Record<string, unknown> => {
  try {
    return { output: JSON.parse(content) };
  } catch {
    return { output: content };
  }
};

const callPart = (call: { id: string; name: string; arguments: Readonly<Record<string, unknown>> }): Part => ({
  functionCall: {
    ...(!call.id.startsWith(MADE_ID) && { id: call.id }),
    name: call.name,
    args: { ...call.arguments },
  },
  thoughtSignature: NO_SIGNATURE,
});

/** The conversation as Gemini's contents: `user` and `model` turns, calls and their answers as parts. */
const geminiContents = (messages: readonly ChatMessage[]): Content[] => {
  const contents: Content[] = [];
  const add = (role: 'user' | 'model', parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts?.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    if (message.role === 'user') add('user', message.content === '' ? [] : [{ text: message.content }]);
    else if (message.role === 'assistant') {
      add('model', [
        ...(message.content === '' ? [] : [{ text: message.content }]),
        ...(message.toolCalls ?? []).map(callPart),
      ]);
    } else if (message.role === 'tool') {
      add('user', [
        {
          functionResponse: {
            ...(!message.toolCallId.startsWith(MADE_ID) && { id: message.toolCallId }),
            name: message.name,
            response: responseOf(message.content),
          },
        },
      ]);
    }
  }
  return contents;
};

export const geminiRequest = (request: ChatRequest, model: string): GenerateContentParameters => {
  const system = systemInstruction(request.messages);
  return {
    model,
    contents: geminiContents(request.messages),
    config: {
      ...(system !== undefined && { systemInstruction: system }),
      ...(request.temperature !== undefined && { temperature: request.temperature }),
      ...(request.maxTokens !== undefined && { maxOutputTokens: request.maxTokens }),
      ...(request.topP !== undefined && { topP: request.topP }),
      ...(request.topK !== undefined && { topK: request.topK }),
      ...(request.frequencyPenalty !== undefined && { frequencyPenalty: request.frequencyPenalty }),
      ...(request.presencePenalty !== undefined && { presencePenalty: request.presencePenalty }),
      ...(request.stop && request.stop.length > 0 && { stopSequences: [...request.stop] }),
      ...(request.tools &&
        request.tools.length > 0 && {
          tools: [
            {
              functionDeclarations: request.tools.map((tool) => ({
                name: tool.name,
                description: tool.description,
                parametersJsonSchema: tool.inputSchema,
              })),
            },
          ],
        }),
      ...(request.json && {
        responseMimeType: 'application/json',
        ...(request.json.schema && { responseJsonSchema: request.json.schema }),
      }),
    },
  };
};

const toolCallOf = (call: FunctionCall) => ({
  id: call.id ?? `${MADE_ID}${newToolCallId()}`,
  name: call.name ?? '',
  arguments: toolArguments(call.args ?? {}),
});

const finishReason = (reason: string | undefined, calls: number): ChatAnswer['finishReason'] => {
  if (calls > 0) return 'tool_calls';
  if (reason === 'STOP') return 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  return 'other';
};

export const geminiAnswer = (response: GenerateContentResponse, asked: string): ChatAnswer => {
  const candidate = response.candidates?.[0];
  const parts = candidate?.content?.parts ?? [];
  const toolCalls = parts.flatMap((part) => (part.functionCall ? [toolCallOf(part.functionCall)] : []));
  const usage = response.usageMetadata;
  return {
    // Thought summaries are parts too; the answer is the rest.
    text: parts.flatMap((part) => (typeof part.text === 'string' && !part.thought ? [part.text] : [])).join(''),
    toolCalls,
    usage: {
      inputTokens: usage?.promptTokenCount ?? 0,
      outputTokens: (usage?.candidatesTokenCount ?? 0) + (usage?.thoughtsTokenCount ?? 0),
    },
    model: response.modelVersion ?? asked,
    // A prompt Gemini blocks gets no candidate: `other`, as a safety stop is.
    finishReason: finishReason(candidate?.finishReason, toolCalls.length),
  };
};

/** Gemini through the Gemini API's generateContent. */
export const geminiModel = (access: GeminiAccess): LanguageModel => ({
  defaultModel: GEMINI_DEFAULT_MODEL,
  chat: (request) => {
    const model = request.model ?? GEMINI_DEFAULT_MODEL;
    return withGemini(access, async (client) =>
      geminiAnswer(await client.models.generateContent(geminiRequest(request, model)), model),
    );
  },
});
