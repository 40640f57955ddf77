import { Agent, fetch as undiciFetch } from 'undici';
import { assertUrlAllowed, guardedLookup, type NetworkPolicy, type ResolveHost } from './network-guard.js';

export interface HttpLimits {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = { timeoutMs: 30_000, maxResponseBytes: 10 * 1024 * 1024 };

/** The connection pool every app's `ctx.http` goes through, with the network policy built in. */
export interface HttpTransport {
  readonly policy: NetworkPolicy;
  readonly limits: HttpLimits;
  readonly agent: Agent;
  close(): Promise<void>;
}

export const createHttpTransport = (
  policy: NetworkPolicy,
  limits: Partial<HttpLimits> = {},
  /** The DNS the guard asks at connect time; a test's fake DNS in place of the system's. */
  resolve?: ResolveHost,
): HttpTransport => {
  const agent = new Agent({
    connect: { lookup: guardedLookup(policy, resolve), timeout: 10_000 },
    // Pooled sockets are bound to the address checked when they connected.
    keepAliveTimeout: 10_000,
  });
  return {
    policy,
    limits: { ...DEFAULT_HTTP_LIMITS, ...limits },
    agent,
    // Closing comes after the queue has stopped: calls still under way belong to runs already
    // released to other workers, so they are cut rather than waited for (close() would wait for
    // them, up to the whole request time-out, holding the shutdown).
    close: () => agent.destroy(),
  };
};

/**
 * The URL and options of a call as undici's fetch takes them: a global `Request` (which some SDKs
 * hand over, Mistral's among them) is not undici's own class, so it is spelled out.
 */
const spelledOut = async (input: Parameters<typeof fetch>[0], init: RequestInit | undefined) => {
  if (!(input instanceof Request)) return { url: String(input), init: init ?? {} };
  const body = input.body === null ? undefined : await input.arrayBuffer();
  return {
    url: input.url,
    init: { method: input.method, headers: input.headers, body, signal: input.signal, ...init } as RequestInit,
  };
};

/**
 * A WHATWG `fetch` over the transport, for vendors' SDKs: connections through the pool's guarded
 * lookup, addresses written as IPs checked too, and each request cut when `signal` aborts.
 */
export const guardedFetch =
  (transport: HttpTransport, signal: AbortSignal): typeof fetch =>
  async (input, given) => {
    const { url, init } = await spelledOut(input, given);
    assertUrlAllowed(new URL(url), transport.policy);
    const signals = [signal, init.signal].filter((s): s is AbortSignal => s instanceof AbortSignal);
    // undici's own fetch takes the dispatcher; its Response is the global one's twin.
    return (await undiciFetch(url, {
      ...(init as object),
      signal: AbortSignal.any(signals),
      dispatcher: transport.agent,
    } as never)) as unknown as Response;
  };
