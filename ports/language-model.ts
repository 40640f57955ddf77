/**
 * What the engine asks of a language model, whichever vendor answers: one chat turn, with tools the
 * model may call. Apps that are models (OpenAI, Anthropic, Gemini...) implement it over their
 * vendor's SDK; the agent step and the AI actions speak only this.
 */

/** A JSON Schema of an object: a tool's input, or the answer an extraction expects. */
export type JsonSchema = Readonly<Record<string, unknown>>;

export interface ToolSpec {
  /** Unique among the tools of one request; what the model names in a call (`[A-Za-z0-9_-]{1,64}`). */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

export interface ToolCall {
  /** The model's id of the call, which the tool's answer refers to. */
  readonly id: string;
  readonly name: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ToolCall[] }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      readonly name: string;
      readonly content: string;
      /** The tool failed (or a person denied the call): `content` says why (Anthropic's `is_error`). */
      readonly isError?: boolean;
    };

export interface ChatRequest {
  /** The vendor's model name; the connection's or the app's default when absent. */
  readonly model?: string;
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ToolSpec[];
  readonly temperature?: number;
  readonly maxTokens?: number;
  /**
   * Sampling settings a step may set (Automatisch's chat actions have them). A vendor that lacks
   * one ignores it (OpenAI has no top-k; Anthropic no penalties).
   */
  readonly topP?: number;
  readonly topK?: number;
  readonly frequencyPenalty?: number;
  readonly presencePenalty?: number;
  /** Texts at which the model stops; the answer does not contain them. */
  readonly stop?: readonly string[];
  /** Ask for a JSON answer (`schema`: of that shape, where the vendor can hold the model to it). */
  readonly json?: { readonly schema?: JsonSchema };
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface ChatAnswer {
  /** The text of the answer ('' when the model only called tools). */
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage: TokenUsage;
  /** The model that answered, as the vendor names it. */
  readonly model: string;
  readonly finishReason: 'stop' | 'tool_calls' | 'length' | 'other';
}

export interface LanguageModel {
  /** The model asked when a request names none. */
  readonly defaultModel: string;
  /** Throws the app kit's errors (HttpError with the status, TemporaryError for 429/5xx...). */
  chat(request: ChatRequest): Promise<ChatAnswer>;
}
