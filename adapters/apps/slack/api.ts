import type { AppContext, AuthAccess, HttpMethod } from '../sdk/index.js';

/** Every Web API answer says whether it worked; a refusal comes with status 200 and an `error`. */
export interface SlackAnswer {
  readonly ok: boolean;
  readonly error?: string;
  /** The scope a `missing_scope` refusal lacked. */
  readonly needed?: string;
}

/** A Web API method's refusal (`channel_not_found`, `not_in_channel`, `invalid_auth`...). */
export class SlackError extends Error {
  override readonly name = 'SlackError';
  constructor(
    readonly method: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Throws Slack's refusal as the step's failure: the method and Slack's error code. */
export const okOrThrow = <T extends SlackAnswer>(method: string, answer: T): T => {
  if (answer?.ok) return answer;
  const code = answer?.error ?? 'an answer without ok';
  const scope = answer?.needed ? ` (the connection lacks the ${answer.needed} scope: connect again)` : '';
  throw new SlackError(method, code, `Slack’s ${method} answered ${code}${scope}.`);
};

/**
 * The member token (xoxp) Slack gave for the person who connected, when the connection has one:
 * searching and posting as that person need it; everything else uses the bot token.
 */
export const userToken = (auth: Pick<AuthAccess, 'data'>): string | null => {
  const token = auth.data.userAccessToken;
  return typeof token === 'string' && token !== '' ? token : null;
};

export interface SlackCall {
  readonly method?: HttpMethod;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly body?: Readonly<Record<string, unknown>>;
  /** `user`: the member token (the bot's when there is none); the bot token by default. */
  readonly as?: 'user' | 'bot';
}

/** Calls a Web API method (`chat.postMessage`...) and answers Slack's answer once it says ok. */
export const callSlack = async <T extends object>(
  ctx: Pick<AppContext<unknown>, 'http' | 'auth'>,
  method: string,
  call: SlackCall = {},
): Promise<T & SlackAnswer> => {
  const token = call.as === 'user' ? userToken(ctx.auth) : null;
  const { data } = await ctx.http.request<T & SlackAnswer>({
    method: call.method ?? (call.body ? 'POST' : 'GET'),
    path: `/${method}`,
    ...(call.query && { query: call.query }),
    ...(call.body && { body: call.body }),
    // The connection's header carries the bot token; a request's own header wins over it.
    ...(token && { headers: { authorization: `Bearer ${token}` } }),
  });
  return okOrThrow(method, data);
};
