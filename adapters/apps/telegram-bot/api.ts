import { type AppContext, type AuthAccess, fieldsAuth, HttpError, text } from '../sdk/index.js';

/** Bot API answers: `ok` with the `result`, or a refusal with its code and description. */
interface Answer<T> {
  readonly ok: boolean;
  readonly result?: T;
  readonly error_code?: number;
  readonly description?: string;
  readonly parameters?: { readonly retry_after?: number };
}

/** The bot's token, from @BotFather; the Bot API takes it in the path of every method. */
export const telegramAuth = fieldsAuth({
  fields: {
    token: text({
      label: 'Bot token',
      required: true,
      secret: true,
      description: 'The token @BotFather gave when the bot was created (/newbot, or /token).',
    }),
  },
  async verify(ctx) {
    const me = await callTelegram<{ first_name: string; username?: string }>(ctx, 'getMe');
    return { screenName: me.username ? `${me.first_name} (@${me.username})` : me.first_name };
  },
});

type Caller = Pick<AppContext<unknown>, 'http'> & { readonly auth: Pick<AuthAccess, 'data'> };

/**
 * Calls a Bot API method. The token is part of the path, so a failure is reported by the method's
 * name and Telegram's description, never by its address; 429 (with `retry_after`) and 5xx stay
 * retryable.
 */
export const callTelegram = async <T>(ctx: Caller, method: string, body?: unknown): Promise<T> => {
  const { token } = telegramAuth.read(ctx.auth);
  const response = await ctx.http.request<Answer<T> | string | null>({
    method: 'POST',
    path: `/bot${token}/${method}`,
    ...(body !== undefined && { body }),
    throwHttpErrors: false,
  });
  const answer = typeof response.data === 'object' && response.data !== null ? response.data : null;
  if (response.status < 400 && answer?.ok) return answer.result as T;
  const description = answer?.description ?? `Telegram answered ${response.status}.`;
  throw new HttpError(
    answer?.error_code ?? response.status,
    'POST',
    method,
    { message: description },
    answer?.parameters?.retry_after ?? null,
  );
};
