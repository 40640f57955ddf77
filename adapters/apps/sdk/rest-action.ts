import type { ArgumentMap, InferParameters, ParametersCheck } from './arguments.js';
import type { AppContext } from './context.js';
import { type ActionDefinition, defineAction } from './define.js';
import type { HttpMethod } from './http-client.js';

/** One call of the vendor's API, relative to the app's base URL. */
export interface RequestTemplate {
  readonly method?: HttpMethod;
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | null | undefined>>;
  /** JSON unless it is text, bytes or URLSearchParams (a form); undefined values are left out. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string | undefined>>;
}

export interface RestActionOptions<M extends ArgumentMap, F extends string = never> {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly arguments: M;
  readonly dynamicFieldsKey?: F;
  readonly check?: ParametersCheck<InferParameters<M>>;
  /** The call, from the step's typed parameters. */
  request(parameters: InferParameters<M>, ctx: AppContext<InferParameters<M>>): RequestTemplate;
  /** What the step outputs, from the vendor's answer; the answer itself by default. */
  output?(data: any, parameters: InferParameters<M>): unknown;
  /**
   * The header the vendor deduplicates writes by (Stripe's `Idempotency-Key`...): it gets the
   * execution step's key, stable across retries, so a retried step does not write twice.
   */
  readonly idempotencyHeader?: string;
}

/** Encodes a path segment: ids and names from users never change which resource a path names. */
export const segment = (value: string | number): string => encodeURIComponent(String(value));

/**
 * An action that is one request to the vendor and a mapping of its answer: most SaaS actions.
 * Errors are the HTTP client's (the vendor's message; 429 and 5xx retried, with Retry-After).
 */
export const restAction = <const M extends ArgumentMap, const F extends string = never>(
  options: RestActionOptions<M, F>,
): ActionDefinition<M, F> =>
  defineAction<M, F>({
    key: options.key,
    name: options.name,
    description: options.description,
    arguments: options.arguments,
    ...(options.dynamicFieldsKey !== undefined && { dynamicFieldsKey: options.dynamicFieldsKey }),
    ...(options.check && { check: options.check }),
    async run(ctx) {
      const call = options.request(ctx.parameters, ctx);
      const idempotency =
        options.idempotencyHeader && ctx.execution ? { [options.idempotencyHeader]: ctx.execution.idempotencyKey } : {};
      const { data } = await ctx.http.request({
        method: call.method ?? 'GET',
        path: call.path,
        ...(call.query && { query: call.query }),
        ...(call.body !== undefined && { body: call.body }),
        headers: { ...idempotency, ...call.headers },
      });
      return options.output ? options.output(data, ctx.parameters) : data;
    },
  });
