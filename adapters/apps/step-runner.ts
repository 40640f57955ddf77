import { createHash } from 'node:crypto';
import type {
  ActionOutcome,
  HookOutcome,
  ListenOutcome,
  StepFailure,
  StepRunner,
  StepRunRequest,
  TriggerOutcome,
  UnhookOutcome,
} from '../../ports/step-runner.js';
import type { InProcessAppCatalog } from './app-catalog.js';
import { failureReason, secretsOf } from './failure-reason.js';
import type { App } from './sdk/index.js';
import {
  AuthorizationRevokedError,
  HttpError,
  HttpRequestError,
  InvalidParametersError,
  isFlowStop,
  isFlowSuspend,
  isFlowWait,
  TemporaryError,
  WebhookRefusedError,
  WebhookReplyRequested,
} from './sdk/index.js';
import { validate } from './sdk/validation.js';

/** Polling triggers look for new items this often unless they say otherwise. */
export const DEFAULT_POLL_SCHEDULE = { cron: '*/5 * * * *', timezone: 'UTC' } as const;

/**
 * Codes of a connection that could not be made or broke off. Apps that open their own sockets
 * (postgresql, smtp) throw Node's errors with them; nodemailer renames the code of a socket's error
 * to `ESOCKET` (TLS failures included, which have no `syscall`) and of a lost session to
 * `ECONNECTION`. Like the HTTP client's network failures, they are worth another attempt.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'EAI_AGAIN',
  'ECONNECTION',
]);

const isNetworkFailure = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (code === 'ESOCKET') return typeof syscall === 'string';
  return typeof code === 'string' && NETWORK_CODES.has(code);
};

/** Deeper than this, a value takes the JSON round trip (which also refuses a cycle). */
const PLAIN_DEPTH = 64;

/**
 * Whether a JSON round trip would give back the same value: nothing but null, booleans, strings,
 * finite numbers, dense arrays and plain objects without `toJSON` or undefined, function or
 * symbol values. Most outputs are; checking costs far less than the round trip.
 */
const isPlainJson = (value: unknown, depth: number): boolean => {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0);
  if (typeof value !== 'object' || depth >= PLAIN_DEPTH) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Array.prototype) {
    const items = value as unknown[];
    for (let i = 0; i < items.length; i++) if (!isPlainJson(items[i], depth + 1)) return false;
    return true;
  }
  if (prototype !== Object.prototype || 'toJSON' in value) return false;
  for (const key in value) {
    if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
};

/** Outputs are stored as JSON: what JSON cannot hold (undefined, functions, dates as objects) goes now. */
export const asJson = (value: unknown): unknown => {
  if (value === undefined) return null;
  return isPlainJson(value, 0) ? value : JSON.parse(JSON.stringify(value) ?? 'null');
};

/**
 * The engine's StepRunner on the app catalog: runs hooks and turns what they return or throw into
 * outcomes. Errors keep the remote service's words, scrubbed of the connection's secrets.
 */
export const createStepRunner = (catalog: InProcessAppCatalog, apps: readonly App[]): StepRunner => {
  const byKey = new Map(apps.map((app) => [app.key, app]));

  const reasonOf = (request: Pick<StepRunRequest, 'appKey' | 'connection'>, error: unknown): string => {
    const app = byKey.get(request.appKey);
    const secrets = app
      ? secretsOf(app, request.connection?.credentials ?? {}, request.connection?.oauth?.client ?? null)
      : [];
    return failureReason(error, secrets);
  };

  const failure = (request: Pick<StepRunRequest, 'appKey' | 'connection'>, error: unknown): StepFailure => {
    const message = reasonOf(request, error);
    if (error instanceof InvalidParametersError)
      return { message, retryable: false, details: { fields: error.fields } };
    // Only the user can mend it (the connection is marked unverified): another attempt would fail alike.
    if (error instanceof AuthorizationRevokedError)
      return { message, retryable: false, details: { kind: 'reconnect' } };
    if (error instanceof HttpError) {
      return {
        message,
        retryable: error.retryable,
        ...(error.retryAfterSeconds !== null && { retryAfterMs: error.retryAfterSeconds * 1000 }),
        details: { status: error.status, body: error.bodyExcerpt },
      };
    }
    if (error instanceof HttpRequestError)
      return { message, retryable: error.retryable, details: { kind: error.kind } };
    if (error instanceof TemporaryError) {
      return {
        message,
        retryable: true,
        ...(error.retryAfterSeconds !== null && { retryAfterMs: error.retryAfterSeconds * 1000 }),
        details: { kind: 'temporary' },
      };
    }
    if (isNetworkFailure(error)) return { message, retryable: true, details: { kind: 'network' } };
    return { message, retryable: false };
  };

  return {
    async runAction(request): Promise<ActionOutcome> {
      try {
        const result = await catalog.runAction(request);
        if (isFlowStop(result)) {
          const output = asJson(result.output);
          return result.failure === null ? { kind: 'stop', output } : { kind: 'stop', output, failure: result.failure };
        }
        if (isFlowSuspend(result)) return { kind: 'suspend', until: result.until };
        if (isFlowWait(result)) return { kind: 'wait', until: result.until, output: asJson(result.output) };
        return { kind: 'success', output: asJson(result) };
      } catch (error) {
        return { kind: 'failure', failure: failure(request, error) };
      }
    },

    async runTrigger(request): Promise<TriggerOutcome> {
      try {
        const items = await catalog.runTrigger(request);
        return { kind: 'success', items: items.map((item) => ({ ...item, data: asJson(item.data) })) };
      } catch (error) {
        // Only a request can be refused or answered: a poll or a test that throws these has failed.
        if (request.webhook && error instanceof WebhookRefusedError)
          return { kind: 'refused', reason: reasonOf(request, error) };
        if (request.webhook && error instanceof WebhookReplyRequested) {
          const { status, headers = {}, body = null } = error.reply;
          return { kind: 'reply', reply: { status, headers, body: asJson(body) } };
        }
        return { kind: 'failure', failure: failure(request, error) };
      }
    },

    async registerHook(request): Promise<HookOutcome> {
      try {
        return { kind: 'registered', hook: asJson(await catalog.registerHook(request)) };
      } catch (error) {
        return { kind: 'failure', failure: failure(request, error) };
      }
    },

    async unregisterHook(request): Promise<UnhookOutcome> {
      try {
        await catalog.unregisterHook(request);
        return { kind: 'removed' };
      } catch (error) {
        return { kind: 'failure', failure: failure(request, error) };
      }
    },

    async listen(request): Promise<ListenOutcome> {
      try {
        await catalog.listen({
          ...request,
          emit: (message) => {
            const data = asJson(message.data);
            return request.emit({
              ...(message.id !== undefined && { id: message.id }),
              contentKey: createHash('sha256').update(JSON.stringify(data)).digest('base64url'),
              redelivered: message.redelivered === true,
              data,
            });
          },
        });
        return { kind: 'closed' };
      } catch (error) {
        return { kind: 'failure', failure: failure(request, error) };
      }
    },

    async chat(request) {
      try {
        return { kind: 'success', answer: await catalog.chat(request) };
      } catch (error) {
        return { kind: 'failure', failure: failure(request, error) };
      }
    },

    async listTools(request) {
      try {
        return { kind: 'success', tools: await catalog.listTools(request) };
      } catch (error) {
        return { kind: 'failure', failure: failure(request, error) };
      }
    },

    async callTool(request) {
      try {
        return { kind: 'success', output: asJson(await catalog.callTool(request)) };
      } catch (error) {
        return { kind: 'failure', failure: failure(request, error) };
      }
    },

    registersHook: (appKey, key) => byKey.get(appKey)?.triggers.find((t) => t.key === key)?.registerHook !== undefined,

    scheduleOf(appKey, key, parameters) {
      const trigger = byKey.get(appKey)?.triggers.find((t) => t.key === key);
      if (!trigger || trigger.type === 'webhook') return null;
      const parsed = validate(trigger.parameters, parameters);
      if (!parsed.ok) return null;
      return trigger.schedule?.(parsed.value) ?? (trigger.type === 'polling' ? DEFAULT_POLL_SCHEDULE : null);
    },
  };
};
