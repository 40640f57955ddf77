import type { TestActor } from './actors.js';
import { owner } from './flow-resources.js';
import { type ForeignCase, type MatrixFixtures, MISSING, permitted, type RouteCase } from './route-case.js';

const must = <T>(result: { ok: true; value: T } | { ok: false; error: { code: string } }, what: string): T => {
  if (!result.ok) throw new Error(`could not ${what}: ${result.error.code}`);
  return result.value;
};

/**
 * A draft flow of the caller (or of the administrator) whose webhook caught one request and whose
 * action fails when tested: a step to test and a failed execution to read and retry.
 */
const testedFlowFor = async (fx: MatrixFixtures, actor: TestActor | null) => {
  const by = await owner(fx, actor);
  const flow = must(await fx.useCases.createFlow(by, {}), 'create a flow');
  const [trigger, action] = flow.steps;
  if (!trigger || !action) throw new Error('a new flow has a trigger and an action');
  must(await fx.useCases.updateStep(by, trigger.id, { appKey: 'webhook', key: 'catchRawWebhook' }), 'set a trigger');
  const parameters = { transform: 'parseStringifiedJson', input: 'not json' };
  must(await fx.useCases.updateStep(by, action.id, { appKey: 'formatter', key: 'text', parameters }), 'set an action');
  must(
    await fx.useCases.acceptWebhook(flow.id, { method: 'POST', headers: {}, query: {}, body: {} }),
    'catch a request',
  );
  const tested = must(await fx.useCases.testStep(by, action.id), 'test the action');
  return { stepId: action.id, executionId: tested.lastExecutionStep?.executionId ?? '' };
};

type PathOf = (fx: MatrixFixtures, actor: TestActor | null) => Promise<string>;

/** A draft flow's webhook trigger, which nothing calls: a wait for its next event sees none. */
const waitingStepPath: PathOf = async (fx, actor) => {
  const by = await owner(fx, actor);
  const flow = must(await fx.useCases.createFlow(by, {}), 'create a flow');
  const [trigger] = flow.steps;
  if (!trigger) throw new Error('a new flow has a trigger');
  must(await fx.useCases.updateStep(by, trigger.id, { appKey: 'webhook', key: 'catchRawWebhook' }), 'set a trigger');
  return `/steps/${trigger.id}/test-event`;
};
const executionPath =
  (suffix = ''): PathOf =>
  async (fx, actor) =>
    `/executions/${(await testedFlowFor(fx, actor)).executionId}${suffix}`;
const testedStepPath =
  (suffix: string): PathOf =>
  async (fx, actor) =>
    `/steps/${(await testedFlowFor(fx, actor)).stepId}${suffix}`;

/** Another user's execution: hidden from roles without `read Execution` on all rows. */
const foreign = (path: PathOf, readAllManageOwn: number, manageAll: number): ForeignCase => ({
  path: (fx) => path(fx, null),
  status: 404,
  readAllManageOwn,
  manageAll,
});

/** Executions and test runs (API.md §6.7 test step, §6.8). */
export const EXECUTION_ROUTES: readonly RouteCase[] = [
  { method: 'GET', route: '/executions', path: () => '/executions', expect: permitted(200) },
  {
    method: 'GET',
    route: '/executions/:executionId',
    path: executionPath(),
    expect: permitted(200, 404),
    foreign: foreign(executionPath(), 404, 404),
  },
  {
    method: 'GET',
    route: '/executions/:executionId/execution-steps',
    path: executionPath('/execution-steps'),
    expect: permitted(200, 404),
    foreign: foreign(executionPath('/execution-steps'), 404, 404),
  },
  {
    method: 'POST',
    route: '/executions/:executionId/retry',
    path: executionPath('/retry'),
    body: () => ({ version: 'original' }),
    expect: permitted(201, 404),
    foreign: foreign(executionPath('/retry'), 404, 404),
  },
  {
    method: 'GET',
    route: '/executions/:executionId/calls',
    path: executionPath('/calls'),
    expect: permitted(200, 404),
    foreign: foreign(executionPath('/calls'), 404, 404),
  },
  {
    // No agent waits in these runs: a caller who may answer learns the call is not there, and only them.
    method: 'POST',
    route: '/executions/:executionId/calls/:callId/approval',
    path: executionPath(`/calls/${MISSING}/approval`),
    body: () => ({ approved: true }),
    expect: permitted(404, 404),
    foreign: foreign(executionPath(`/calls/${MISSING}/approval`), 404, 404),
  },
  ...['/test', '/test-and-continue', '/continue-without-test'].map(
    (suffix): RouteCase => ({
      method: 'POST',
      route: `/steps/:stepId${suffix}`,
      path: testedStepPath(suffix),
      expect: permitted(200, 404),
      foreign: foreign(testedStepPath(suffix), 403, 200),
    }),
  ),
  {
    // Nothing is sent to the webhook while it waits: the shortest wait answers 204.
    method: 'POST',
    route: '/steps/:stepId/test-event',
    path: waitingStepPath,
    body: () => ({ timeoutSeconds: 1 }),
    expect: permitted(204, 404),
    foreign: foreign(waitingStepPath, 403, 204),
  },
];
