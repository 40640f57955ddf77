/**
 * The answers a test scripts for a fake model vendor (fake-anthropic.ts, and the Gemini, Mistral and
 * Ollama fakes beside the apps' tests): each request to the vendor's chat endpoint takes the next
 * one, which the fake renders in its vendor's shape.
 *
 *   vendor.script([{ toolCalls: [{ name: 'lookup', input: { q: 'x' } }] }, { text: 'Done.' }]);
 *   vendor.script([{ error: 429, retryAfter: 2 }, { text: 'Hello' }]);
 */
import type { FakeRequest, FakeVendor } from './fake-vendor.js';

export interface ScriptedToolCall {
  /** The vendor's id of the call; the fake makes one when absent (Ollama's calls have none). */
  readonly id?: string;
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

export interface ScriptedReply {
  readonly text?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** Why the answer ended; by default `tool_calls` when it calls tools, else `stop`. */
  readonly finish?: 'stop' | 'length';
  /** The model said to answer; by default the one asked. */
  readonly model?: string;
  /** By default about a token per four characters of the request and of the answer. */
  readonly usage?: { readonly input: number; readonly output: number };
}

export interface ScriptedError {
  /** The status the vendor answers: 429 (with `retryAfter`), 500, 503, 529, 400, 401... */
  readonly error: number;
  readonly message?: string;
  /** Seconds, sent as the vendor sends them (Retry-After, or Gemini's RetryInfo). */
  readonly retryAfter?: number;
}

export type ScriptedAnswer = ScriptedReply | ScriptedError;

/** A fixed answer, or one made from the request's body (an echo, an answer that depends on the tools). */
export type ScriptStep = ScriptedAnswer | ((body: any) => ScriptedAnswer);

export const isScriptedError = (answer: ScriptedAnswer): answer is ScriptedError => 'error' in answer;

/** A rough token count, as vendors report it, for answers whose usage was not scripted. */
export const roughTokens = (value: unknown) => Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));

export interface ModelScript {
  /** Adds answers after those still waiting. */
  script(steps: readonly ScriptStep[]): void;
  /** The next answer for a request's body; null when the script ran out. */
  next(body: unknown): ScriptedAnswer | null;
  /** How many answers are still waiting. */
  readonly pending: number;
}

export const createModelScript = (): ModelScript => {
  const queue: ScriptStep[] = [];
  return {
    script(steps) {
      queue.push(...steps);
    },
    next(body) {
      const step = queue.shift();
      if (step === undefined) return null;
      return typeof step === 'function' ? step(body) : step;
    },
    get pending() {
      return queue.length;
    },
  };
};

/** What every fake model vendor offers a test. */
export interface FakeModelVendor {
  readonly url: string;
  /** Every request, in order (headers lower-case, bodies parsed). */
  readonly requests: FakeRequest[];
  /** The bodies the chat endpoint received, refused ones included, in order (of `requests`: emptying it forgets them). */
  bodies(): any[];
  /** Adds answers for the next calls of the chat endpoint, in order. */
  script(steps: readonly ScriptStep[]): void;
  /** Answers scripted and not asked for yet. */
  readonly pending: number;
  close(): Promise<void>;
}

/** The test's side of a fake vendor whose chat endpoint answers from `answers`. */
export const fakeModelVendor = (
  vendor: FakeVendor,
  answers: ModelScript,
  chat: (request: FakeRequest) => boolean,
): FakeModelVendor => ({
  url: vendor.url,
  requests: vendor.requests,
  bodies: () => vendor.requests.filter(chat).map((request) => request.body),
  script: (steps) => answers.script(steps),
  get pending() {
    return answers.pending;
  },
  close: () => vendor.close(),
});
