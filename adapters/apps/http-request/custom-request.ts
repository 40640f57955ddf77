import { defineAction, dropdown, type HttpMethod, httpUrl, keyValueList, text } from '../sdk/index.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const satisfies readonly HttpMethod[];

const hasBody = (method: HttpMethod) => method !== 'GET' && method !== 'HEAD';

/** Methods that change something at the other end, whose repetition an idempotency key lets it recognise. */
const changesState = (method: HttpMethod) => method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';

/** Text that is a JSON object or array goes out as JSON; anything else as the text it is. */
const bodyOf = (data: string, contentTypeGiven: boolean): unknown => {
  if (contentTypeGiven) return data;
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' && parsed !== null ? parsed : data;
  } catch {
    return data;
  }
};

export const customRequest = defineAction({
  key: 'customRequest',
  name: 'Custom request',
  description: 'Sends an HTTP request and returns the status, headers and body of the answer.',
  arguments: {
    method: dropdown({
      label: 'Method',
      required: true,
      default: 'GET',
      options: METHODS.map((m) => ({ label: m, value: m })),
    }),
    url: text({ label: 'URL', required: true, acceptsVariables: true, placeholder: 'https://', check: httpUrl }),
    headers: keyValueList({
      label: 'Headers',
      acceptsVariables: true,
      description: 'A Content-Type given here is sent as it is; the body then goes out unchanged.',
    }),
    data: text({
      label: 'Body',
      acceptsVariables: true,
      description: 'Sent with all methods but GET and HEAD: JSON objects and arrays as JSON, other text as text.',
    }),
  },
  async run(ctx) {
    const { method, url, headers = [], data } = ctx.parameters;
    const given = Object.fromEntries(headers.map((h) => [h.key, h.value]));
    const contentTypeGiven = headers.some((h) => h.key.toLowerCase() === 'content-type');
    // A step cut short by a crash runs again (at least once); the key, the same on every attempt of
    // this execution's step, lets the receiver tell a repetition from a new request. A key the user
    // gives wins.
    const keyGiven = headers.some((h) => h.key.toLowerCase() === 'idempotency-key');
    const idempotency =
      ctx.execution && changesState(method) && !keyGiven ? { 'Idempotency-Key': ctx.execution.idempotencyKey } : {};
    const response = await ctx.http.request({
      method,
      url,
      headers: { ...idempotency, ...given },
      ...(data !== undefined && hasBody(method) && { body: bodyOf(data, contentTypeGiven) }),
      // A 404 or 422 is an answer the flow may act on, so it is returned. Rate limits, time-outs
      // and server errors are thrown as the SDK's retryable HttpError, so that the engine retries
      // the step with backoff (ARCHITECTURE.md §5) instead of recording a transient failure as data.
      throwHttpErrors: 'retryable',
    });
    return { status: response.status, headers: response.headers, data: response.data };
  },
});
