import type { TestActor } from './actors.js';
import { owner } from './flow-resources.js';
import { type ForeignCase, type MatrixFixtures, permitted, type RouteCase } from './route-case.js';

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
  ...['/test', '/test-and-continue', '/continue-without-test'].map(
    (suffix): RouteCase => ({
      method: 'POST',
      route: `/steps/:stepId${suffix}`,
      path: testedStepPath(suffix),
      expect: permitted(200, 404),
      foreign: foreign(testedStepPath(suffix), 403, 200),
    }),
  ),
];
