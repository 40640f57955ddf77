import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { completeFlow, type FlowWorld, startFlowWorld } from '../support/flow-fixtures.js';

/** One user's resources that a route can name. */
interface Owned {
  readonly flowId: string;
  readonly triggerId: string;
  readonly actionId: string;
  readonly folderId: string;
}

interface Guarded {
  readonly method: string;
  readonly path: (own: Owned) => string;
  /** A body the route accepts: bodies are validated before access is decided. */
  readonly body?: (own: Owned) => unknown;
  /** What the route refuses with 422: another body, or another path (a bad query). */
  readonly bad: { readonly body?: unknown; readonly path?: string } | null;
  /** What a role without flow permissions gets: 403 for collections and folders, 404 for hidden rows. */
  readonly unpermitted: 403 | 404;
}

const trigger = { id: 'a', type: 'trigger', position: 1, appKey: 'test-webhook', key: 'catchRawWebhook' };

const GUARDED: readonly Guarded[] = [
  { method: 'GET', path: () => '/flows', bad: { path: '/flows?perPage=0' }, unpermitted: 403 },
  { method: 'POST', path: () => '/flows', bad: { path: '/flows?templateId=nope' }, unpermitted: 403 },
  {
    method: 'POST',
    path: () => '/flows/import',
    body: () => ({ name: 'x', steps: [trigger] }),
    bad: { body: { name: 'x', steps: 'none' } },
    unpermitted: 403,
  },
  { method: 'GET', path: (o) => `/flows/${o.flowId}`, bad: null, unpermitted: 404 },
  {
    method: 'PATCH',
    path: (o) => `/flows/${o.flowId}`,
    body: () => ({ name: 'x' }),
    bad: { body: { name: '' } },
    unpermitted: 404,
  },
  { method: 'DELETE', path: (o) => `/flows/${o.flowId}`, bad: null, unpermitted: 404 },
  {
    method: 'PATCH',
    path: (o) => `/flows/${o.flowId}/status`,
    body: () => ({ active: false }),
    bad: { body: { active: 'yes' } },
    unpermitted: 404,
  },
  { method: 'POST', path: (o) => `/flows/${o.flowId}/duplicate`, bad: null, unpermitted: 404 },
  { method: 'POST', path: (o) => `/flows/${o.flowId}/export`, bad: null, unpermitted: 404 },
  { method: 'GET', path: (o) => `/flows/${o.flowId}/folder`, bad: null, unpermitted: 404 },
  {
    method: 'PATCH',
    path: (o) => `/flows/${o.flowId}/folder`,
    body: () => ({ folderId: null }),
    bad: { body: { folderId: 'nope' } },
    unpermitted: 404,
  },
  {
    method: 'POST',
    path: (o) => `/flows/${o.flowId}/steps`,
    body: (o) => ({ previousStepId: o.triggerId }),
    bad: { body: { previousStepId: 7 } },
    unpermitted: 404,
  },
  {
    method: 'PATCH',
    path: (o) => `/steps/${o.actionId}`,
    body: () => ({ name: 'x' }),
    bad: { body: { parameters: 'x' } },
    unpermitted: 404,
  },
  { method: 'DELETE', path: (o) => `/steps/${o.actionId}`, bad: null, unpermitted: 404 },
  { method: 'GET', path: (o) => `/steps/${o.actionId}/previous-steps`, bad: null, unpermitted: 404 },
  { method: 'GET', path: (o) => `/steps/${o.actionId}/connection`, bad: null, unpermitted: 404 },
  {
    method: 'POST',
    path: (o) => `/steps/${o.actionId}/dynamic-data`,
    body: () => ({ dynamicDataKey: 'listShelves' }),
    bad: { body: { dynamicDataKey: '' } },
    unpermitted: 404,
  },
  {
    method: 'POST',
    path: (o) => `/steps/${o.actionId}/dynamic-fields`,
    body: () => ({ dynamicFieldsKey: 'noteFields' }),
    bad: { body: { parameters: {} } },
    unpermitted: 404,
  },
  { method: 'GET', path: () => '/folders', bad: null, unpermitted: 403 },
  {
    method: 'POST',
    path: () => '/folders',
    body: () => ({ name: 'Another' }),
    bad: { body: { name: ' ' } },
    unpermitted: 403,
  },
  {
    method: 'PATCH',
    path: (o) => `/folders/${o.folderId}`,
    body: () => ({ name: 'Renamed' }),
    bad: { body: { name: 3 } },
    unpermitted: 403,
  },
  { method: 'DELETE', path: (o) => `/folders/${o.folderId}`, bad: null, unpermitted: 403 },
];

const PLACEHOLDERS: Owned = { flowId: ':flowId', triggerId: ':triggerId', actionId: ':stepId', folderId: ':folderId' };
const name = (route: Guarded) => `${route.method} ${route.path(PLACEHOLDERS)}`;
/** Routes that name a flow, step or folder. */
const ROWS = GUARDED.filter((route) => route.path(PLACEHOLDERS).includes('/:'));

describe.each(DIALECTS)('guards of the flow routes (%s)', (dialect) => {
  let world: FlowWorld;
  let admins: Owned;
  let bobs: Owned;
  let nobody: string;
  beforeAll(async () => {
    world = await startFlowWorld(dialect);
    const owned = async (token: string): Promise<Owned> => {
      const flow = await world.newFlow(token);
      await completeFlow(world, token, flow);
      const folder = await world.call('POST', '/folders', token, { name: 'Guarded' });
      await world.call('PATCH', `/flows/${flow.id}/folder`, token, { folderId: folder.id });
      return { flowId: flow.id, triggerId: flow.triggerId, actionId: flow.actionId, folderId: folder.id };
    };
    admins = await owned(world.adminToken);
    bobs = await owned(world.bob.token);
    nobody = (await world.userWith([])).token;
  });
  afterAll(() => world.close());

  const send = (route: Guarded, own: Owned, token: string | undefined, bad?: Guarded['bad']) => {
    const body = bad ? bad.body : route.body?.(own);
    return world.instance.request(route.method, bad?.path ?? route.path(own), {
      ...(token && { token }),
      ...(body !== undefined && { body }),
    });
  };

  it.each(GUARDED.map((r) => [name(r), r] as const))('%s: 401 without a session', async (_name, route) => {
    const res = await send(route, admins, undefined);
    expect(res.status).toBe(401);
    expect(res.body.meta.type).toBe('UnauthenticatedError');
  });

  it.each(GUARDED.map((r) => [name(r), r] as const))(
    '%s: 403 or 404 for a role without flow permissions',
    async (_name, route) => {
      const res = await send(route, admins, nobody);
      expect(res.status).toBe(route.unpermitted);
    },
  );

  it.each(ROWS.map((r) => [name(r), r] as const))(
    '%s: 404 for another user’s flow, step or folder',
    async (_name, route) => {
      const res = await send(route, admins, world.bob.token);
      expect(res.status).toBe(404);
      expect(res.body.meta.type).toBe('NotFoundError');
    },
  );

  it.each(GUARDED.flatMap((r) => (r.bad ? [[name(r), r] as const] : [])))(
    '%s: 422 for a bad body or query',
    async (_name, route) => {
      const res = await send(route, bobs, world.bob.token, route.bad);
      expect(res.status).toBe(422);
      expect(res.body.meta.type).toBe('ValidationError');
    },
  );
});
