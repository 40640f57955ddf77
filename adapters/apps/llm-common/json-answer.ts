import { z } from 'zod';
import type { ChatRequest, JsonSchema, LanguageModel, TokenUsage } from '../sdk/index.js';

/** A model's answer that did not fit what was asked, twice: the step fails for good, naming what did not fit. */
export class AnswerMismatchError extends Error {
  override readonly name = 'AnswerMismatchError';
}

type Check = (value: unknown) => { ok: true } | { ok: false; problems: string };

/** Reads a JSON Schema for checking answers; throws with the reason when it cannot be read. */
export const schemaCheck = (schema: JsonSchema): Check => {
  const validator = z.fromJSONSchema(schema as z.core.JSONSchema.JSONSchema);
  return (value) => {
    const parsed = validator.safeParse(value);
    if (parsed.success) return { ok: true };
    const problems = parsed.error.issues
      .slice(0, 10)
      .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(answer)'}: ${issue.message}`)
      .join('; ');
    return { ok: false, problems };
  };
};

/** Why a JSON Schema cannot be used (a message for the field), or null. */
export const schemaProblem = (schema: unknown): string | null => {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'must be a JSON Schema object.';
  if ((schema as { type?: unknown }).type !== 'object') return 'must describe an object ("type": "object").';
  try {
    schemaCheck(schema as JsonSchema);
    return null;
  } catch (error) {
    return `is not a JSON Schema that can be checked: ${error instanceof Error ? error.message : String(error)}.`;
  }
};

/** The JSON in a model's text: as it is, or inside a Markdown code fence (models without a JSON mode add one). */
const parseJson = (text: string): { ok: true; value: unknown } | { ok: false } => {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  for (const candidate of [text, fenced?.[1]]) {
    if (candidate === undefined) continue;
    try {
      return { ok: true, value: JSON.parse(candidate.trim()) };
    } catch {
      // try the next
    }
  }
  return { ok: false };
};

export interface JsonAnswer {
  readonly value: unknown;
  readonly model: string;
  /** Both attempts' tokens when there were two. */
  readonly usage: TokenUsage;
  readonly attempts: number;
}

const sum = (a: TokenUsage, b: TokenUsage): TokenUsage => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
});

/**
 * Asks the model for JSON of the schema and checks the answer. An answer that is not JSON or does
 * not fit is sent back once with what was wrong; a second such answer throws `AnswerMismatchError`.
 */
export const askForJson = async (
  model: LanguageModel,
  request: Omit<ChatRequest, 'json'>,
  schema: JsonSchema,
  what: string,
): Promise<JsonAnswer> => {
  const check = schemaCheck(schema);
  let messages = request.messages;
  let usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  for (let attempt = 1; ; attempt++) {
    const answer = await model.chat({ ...request, messages, json: { schema } });
    usage = sum(usage, answer.usage);
    const parsed = parseJson(answer.text);
    const verdict = parsed.ok ? check(parsed.value) : { ok: false as const, problems: 'the answer is not JSON' };
    if (parsed.ok && verdict.ok) return { value: parsed.value, model: answer.model, usage, attempts: attempt };
    const problems = verdict.ok ? '' : verdict.problems;
    if (attempt === 2) {
      throw new AnswerMismatchError(`The model's ${what} did not fit the schema after 2 attempts: ${problems}.`);
    }
    messages = [
      ...messages,
      { role: 'assistant', content: answer.text },
      {
        role: 'user',
        content: `That answer does not fit the JSON Schema: ${problems}. Answer again with only the JSON object, fixed.`,
      },
    ];
  }
};
