import type { RequestListener } from 'node:http';
import { builtInAppsWith } from '../../adapters/apps/index.js';
import { errorBody, renderFailure } from '../../adapters/http/error-table.js';
import type { AcceptedWebhook } from '../../core/application/executions/accept-webhook.js';
import type { ExecutionDetail } from '../../core/application/executions/execution-queries.js';
import type { InstallFirstAdminInput } from '../../core/application/installation/install-first-admin.js';
import type { Actor } from '../../core/domain/actor.js';
import { serviceBusy } from '../../core/domain/errors.js';
import { isFinished } from '../../core/domain/execution.js';
import type { Logger } from '../../ports/logger.js';
import { type Instance, startInstance } from '../instance.js';
import { ConveyorError, unwrap } from './errors.js';
import { type ConveyorOptions, configOf } from './options.js';
import type { ConveyorUseCases } from './public-use-cases.js';
import { createRunEvents, type ExecutionEventName, type ExecutionListener } from './run-events.js';

/** A webhook call of a flow, as `runs.trigger` sends it; a JSON body unless headers say otherwise. */
export interface TriggerRequest {
  readonly body?: unknown;
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | readonly string[]>>;
}

/** The engine's side: start runs of a flow, and read or wait for them. */
export interface Runs {
  /**
   * Calls the flow's webhook trigger in process, as an outside service's call would: a published
   * flow starts a run per item its trigger makes (their ids); an unpublished one keeps the call
   * as test data for the editor and starts nothing (`active: false`).
   */
  trigger(flowId: string, request?: TriggerRequest): Promise<AcceptedWebhook>;
  /** The execution with its steps' records, as the actor may read it. */
  get(actor: Actor, executionId: string): Promise<ExecutionDetail>;
  /** The execution once it has ended (success or failure); rejects after `timeoutMs` (default 30 s). */
  wait(actor: Actor, executionId: string, options?: { readonly timeoutMs?: number }): Promise<ExecutionDetail>;
}

/** One Conveyor inside an application. Everything but `on`, `fetch` and `listener` throws before `start()`. */
export interface Conveyor {
  /** Opens (and migrates) the database and, unless `worker: false`, starts running flows. */
  start(): Promise<void>;
  /** Lets runs in flight finish (or releases them), then closes the database. */
  stop(): Promise<void>;
  /**
   * The HTTP API, webhooks and web console, for any server that speaks Request and Response.
   * Before `start()` (and after `stop()`) it and `listener` answer 503, as the API does when busy.
   */
  fetch(request: Request): Promise<Response>;
  /** The same for node:http's createServer, with webhook calls refused early under overload. */
  readonly listener: RequestListener;
  /** The use cases users reach through HTTP and the CLI, typed; most take an actor (`administrator`, `actAs`). */
  readonly useCases: ConveyorUseCases;
  readonly logger: Logger;
  readonly runs: Runs;
  /**
   * The first administrator: installs it on a new instance, else answers the administrator of
   * that email (the password is then not checked, nor changed).
   */
  administrator(input: InstallFirstAdminInput): Promise<Actor>;
  /** Acts as the active user of that email (the earliest active administrator without one). */
  actAs(email?: string): Promise<Actor>;
  /**
   * Listens to runs that end. Events fire in the process whose worker ran the run: with
   * `worker: false`, or runs taken by `conveyor worker` processes, this process hears nothing.
   * Answers a function that stops listening.
   */
  on(event: ExecutionEventName, listener: ExecutionListener): () => void;
}

const POLL_MS = 50;

// A server mounted before start() (or still up after stop()) answers as the API does when it takes
// no more work, rather than crashing its process.
const NOT_RUNNING = renderFailure(serviceBusy(1));
const NOT_RUNNING_BODY = JSON.stringify(errorBody(NOT_RUNNING));
const NOT_RUNNING_HEADERS = { ...NOT_RUNNING.headers, 'content-type': 'application/json' };

/** Creates a Conveyor from friendly options; nothing is opened until `start()`. Throws ConfigError. */
export const createConveyor = (options: ConveyorOptions = {}): Conveyor => {
  const config = configOf(options);
  const events = createRunEvents();
  const own = options.apps ?? [];
  const apps =
    options.builtInApps === false
      ? own
      : [
          ...builtInAppsWith({
            codeWorkers: config.codeWorkers,
            codeWorkersPerFlow: config.codeWorkersPerFlow,
            mcpStdioAllowed: config.mcpStdioAllowed,
          }),
          ...own,
        ];
  let instance: Instance | null = null;
  let starting: Promise<Instance> | null = null;
  const started = (): Instance => {
    if (!instance) throw new Error('Conveyor is not started: call and await start() first.');
    return instance;
  };

  const runs: Runs = {
    async trigger(flowId, request = {}) {
      // Named in lower case, as Node hands a server's request headers to the webhook trigger.
      const headers = Object.fromEntries(
        Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
      );
      const json = request.body !== undefined && headers['content-type'] === undefined;
      return unwrap(
        await started().useCases.acceptWebhook(flowId, {
          method: request.method ?? 'POST',
          headers: { ...(json && { 'content-type': 'application/json' }), ...headers },
          query: request.query ?? {},
          body: request.body ?? {},
        }),
      );
    },
    async get(actor, executionId) {
      return unwrap(await started().useCases.getExecution(actor, executionId));
    },
    async wait(actor, executionId, { timeoutMs = 30_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const execution = await runs.get(actor, executionId);
        if (isFinished(execution.status)) return execution;
        if (Date.now() > deadline) throw new Error(`execution ${executionId} did not end within ${timeoutMs} ms`);
        // The end event wakes the wait at once when this process runs the flow; polling covers the others.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, POLL_MS);
          const off = events.on('executionFinished', (event) => {
            if (event.executionId === executionId) done();
          });
          function done() {
            clearTimeout(timer);
            off();
            resolve();
          }
        });
      }
    },
  };

  return {
    async start() {
      if (instance) return;
      starting ??= startInstance(
        config,
        {
          apps,
          runObserver: events.observer,
          ...(options.logger && { logger: options.logger }),
          ...(options.clock && { clock: options.clock }),
          ...(options.mailer && { mailTransport: options.mailer }),
        },
        { worker: options.worker ?? true },
      );
      try {
        instance = await starting;
      } finally {
        starting = null;
      }
    },
    async stop() {
      const stopping = instance;
      instance = null;
      await stopping?.close();
    },
    async fetch(request) {
      if (instance) return instance.app.fetch(request);
      return new Response(NOT_RUNNING_BODY, { status: NOT_RUNNING.status, headers: NOT_RUNNING_HEADERS });
    },
    listener(request, response) {
      if (instance) return instance.listener(request, response);
      response.writeHead(NOT_RUNNING.status, NOT_RUNNING_HEADERS).end(NOT_RUNNING_BODY);
    },
    get useCases() {
      return started().useCases;
    },
    get logger() {
      return started().logger;
    },
    runs,
    async administrator(input) {
      const { useCases } = started();
      const installed = await useCases.installFirstAdmin(input);
      if (installed.ok) return { user: installed.value, credential: { kind: 'operator', tokenId: '' } };
      if (installed.error.code !== 'auth.forbidden') throw new ConveyorError(installed.error);
      const actor = unwrap(await useCases.operatorActor(input.email));
      if (!actor.user.role.isAdmin)
        throw new ConveyorError({ code: 'auth.forbidden', reason: `${input.email} is not an administrator.` });
      return actor;
    },
    async actAs(email) {
      return unwrap(await started().useCases.operatorActor(email));
    },
    on: events.on,
  };
};
