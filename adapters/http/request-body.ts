import type { HttpBindings } from '@hono/node-server';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';
import { FailureResponse, fail } from './failures.js';

const tooLarge = (limitBytes: number) => fail({ code: 'http.payload_too_large', limitBytes });

/**
 * Refuses a body whose declared length is over the limit before anything reads it, and tells
 * `bodyText` the limit for bodies sent without a length (chunked), which it enforces as it reads.
 */
export const bodyLimit =
  (limitBytes: number): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined && Number(length) > limitBytes)
      tooLarge(limitBytes);
    c.set('bodyLimitBytes', limitBytes);
    await next();
  };

/**
 * The request body as text, read once. Under Node it comes straight from the socket's stream:
 * Hono's own `c.req.text()` first builds a web `Request` around that stream (headers, an abort
 * signal, a web stream), which cost webhook intake more CPU than the rest of the request's
 * handling. Elsewhere (tests calling `app.request`) it is Hono's text.
 */
export const bodyText = async (c: Context): Promise<string> => {
  const limitBytes = (c as Context<AppEnv>).get('bodyLimitBytes') ?? Number.POSITIVE_INFINITY;
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  if (!incoming) {
    const text = await c.req.text();
    return Buffer.byteLength(text) > limitBytes ? tooLarge(limitBytes) : text;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of incoming as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limitBytes) tooLarge(limitBytes);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof FailureResponse) throw error;
    // The stream fails only when the client hangs up mid-body: its fault, not an internal error.
    return fail({ code: 'http.bad_request', message: 'The request body ended before it was complete.' });
  }
  return chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
};
