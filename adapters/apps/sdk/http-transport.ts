import { Agent } from 'undici';
import { guardedLookup, type NetworkPolicy, type ResolveHost } from './network-guard.js';

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
