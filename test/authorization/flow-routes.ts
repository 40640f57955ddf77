import type { FlowView } from '../../core/application/flows/flow-views.js';
import type { TestActor } from './actors.js';
import {
  actionOf,
  connectedStepFor,
  filedFlowFor,
  flowFor,
  folderFor,
  newTemplate,
  publishedFlowFor,
} from './flow-resources.js';
import {
  adminOnly,
  type ForeignCase,
  type MatrixFixtures,
  permitted,
  type RouteCase,
  signedIn,
  unique,
} from './route-case.js';

/** The flow the last path made, for a body that must name one of its steps. */
let lastFlow: FlowView | null = null;
const remember = (flow: FlowView) => {
  lastFlow = flow;
  return flow;
};

type PathOf = (fx: MatrixFixtures, actor: TestActor | null) => Promise<string>;

const flowPath =
  (suffix = ''): PathOf =>
  async (fx, actor) =>
    `/flows/${remember(await flowFor(fx, actor)).id}${suffix}`;
const actionPath =
  (suffix = ''): PathOf =>
  async (fx, actor) =>
    `/steps/${actionOf(await flowFor(fx, actor))}${suffix}`;
/** The action of a new flow, remembered with its flow for a body that names the flow's trigger. */
const rememberedActionPath =
  (suffix: string): PathOf =>
  async (fx, actor) =>
    `/steps/${actionOf(remember(await flowFor(fx, actor)))}${suffix}`;
const connectedStep =
  (suffix: string): PathOf =>
  async (fx, actor) =>
    `/steps/${await connectedStepFor(fx, actor)}${suffix}`;
/** A path under a published flow whose draft changed since; `suffix` may name its version. */
const versionedPath =
  (suffix: (versionId: string) => string): PathOf =>
  async (fx, actor) => {
    const { flowId, versionId } = await publishedFlowFor(fx, actor);
    return `/flows/${flowId}${suffix(versionId)}`;
  };
const filedFlowPath: PathOf = async (fx, actor) => `/flows/${await filedFlowFor(fx, actor)}/folder`;
const folderPath: PathOf = async (fx, actor) => `/folders/${await folderFor(fx, actor)}`;

/**
 * The same path for the administrator's resource: hidden from User-role callers (all their
 * permissions carry `isCreator`), and readable, or also manageable, for the wider roles.
 */
const foreign = (path: PathOf, readAllManageOwn: number, manageAll: number): ForeignCase => ({
  path: (fx) => path(fx, null),
  status: 404,
  readAllManageOwn,
  manageAll,
});

/** Every route of flows, steps, folders and templates (API.md §6.7, §6.9). */
export const FLOW_ROUTES: readonly RouteCase[] = [
  { method: 'GET', route: '/flows', path: () => '/flows', expect: permitted(200) },
  // From a built-in template: the same guard, before the query is read; no licence needed.
  { method: 'POST', route: '/flows', path: () => '/flows?builtInTemplate=webhook-to-http', expect: permitted(201) },
  {
    method: 'POST',
    route: '/flows/import',
    path: () => '/flows/import',
    body: () => ({
      name: 'Imported',
      steps: [
        { id: 'a', type: 'trigger', position: 1, appKey: 'test-webhook', key: 'catchRawWebhook' },
        { id: 'b', type: 'action', position: 2, parameters: { body: '{{step.a.body}}' } },
      ],
    }),
    expect: permitted(201),
  },
  {
    method: 'GET',
    route: '/flows/:flowId',
    path: flowPath(),
    expect: permitted(200, 404),
    foreign: foreign(flowPath(), 200, 200),
  },
  {
    method: 'PATCH',
    route: '/flows/:flowId',
    path: flowPath(),
    body: () => ({ name: 'Renamed' }),
    expect: permitted(200, 404),
    foreign: foreign(flowPath(), 403, 200),
  },
  {
    method: 'DELETE',
    route: '/flows/:flowId',
    path: flowPath(),
    expect: permitted(204, 404),
    foreign: foreign(flowPath(), 403, 204),
  },
  {
    method: 'PATCH',
    route: '/flows/:flowId/status',
    path: flowPath('/status'),
    body: () => ({ active: false }),
    expect: permitted(200, 404),
    foreign: foreign(flowPath('/status'), 403, 200),
  },
  {
    method: 'POST',
    route: '/flows/:flowId/versions',
    path: versionedPath(() => '/versions'),
    body: () => ({ message: 'Second' }),
    expect: permitted(201, 404),
    foreign: foreign(
      versionedPath(() => '/versions'),
      403,
      201,
    ),
  },
  {
    method: 'GET',
    route: '/flows/:flowId/versions',
    path: versionedPath(() => '/versions'),
    expect: permitted(200, 404),
    foreign: foreign(
      versionedPath(() => '/versions'),
      200,
      200,
    ),
  },
  {
    method: 'GET',
    route: '/flows/:flowId/versions/compare',
    path: versionedPath((id) => `/versions/compare?from=${id}`),
    expect: permitted(200, 404),
    foreign: foreign(
      versionedPath((id) => `/versions/compare?from=${id}`),
      200,
      200,
    ),
  },
  {
    method: 'GET',
    route: '/flows/:flowId/versions/:versionId',
    path: versionedPath((id) => `/versions/${id}`),
    expect: permitted(200, 404),
    foreign: foreign(
      versionedPath((id) => `/versions/${id}`),
      200,
      200,
    ),
  },
  {
    method: 'POST',
    route: '/flows/:flowId/versions/:versionId/restore',
    path: versionedPath((id) => `/versions/${id}/restore`),
    expect: permitted(200, 404),
    foreign: foreign(
      versionedPath((id) => `/versions/${id}/restore`),
      403,
      200,
    ),
  },
  {
    method: 'GET',
    route: '/flows/:flowId/datastore',
    path: flowPath('/datastore?q=x'),
    expect: permitted(200, 404),
    foreign: foreign(flowPath('/datastore?q=x'), 200, 200),
  },
  {
    // No such key: who may manage the flow learns it is not there; who may only read it is refused first.
    method: 'DELETE',
    route: '/flows/:flowId/datastore/:key',
    path: flowPath('/datastore/no%20such%20key'),
    expect: permitted(404, 404),
    foreign: foreign(flowPath('/datastore/no%20such%20key'), 403, 404),
  },
  {
    method: 'DELETE',
    route: '/flows/:flowId/draft',
    path: versionedPath(() => '/draft'),
    expect: permitted(200, 404),
    foreign: foreign(
      versionedPath(() => '/draft'),
      403,
      200,
    ),
  },
  {
    method: 'POST',
    route: '/flows/:flowId/duplicate',
    path: flowPath('/duplicate'),
    expect: permitted(201, 404),
    // A copy is a new flow of the caller's: reading the original is enough.
    foreign: foreign(flowPath('/duplicate'), 201, 201),
  },
  {
    method: 'POST',
    route: '/flows/:flowId/export',
    path: flowPath('/export'),
    expect: permitted(201, 404),
    foreign: foreign(flowPath('/export'), 201, 201),
  },
  {
    method: 'GET',
    route: '/flows/:flowId/folder',
    path: filedFlowPath,
    expect: permitted(200, 404),
    foreign: foreign(filedFlowPath, 200, 200),
  },
  {
    method: 'PATCH',
    route: '/flows/:flowId/folder',
    path: flowPath('/folder'),
    body: () => ({ folderId: null }),
    expect: permitted(200, 404),
    foreign: foreign(flowPath('/folder'), 403, 200),
  },
  {
    method: 'POST',
    route: '/flows/:flowId/steps',
    path: flowPath('/steps'),
    body: () => ({ previousStepId: lastFlow?.steps[0]?.id }),
    expect: permitted(201, 404),
    foreign: foreign(flowPath('/steps'), 403, 201),
  },
  {
    method: 'PATCH',
    route: '/steps/:stepId',
    path: actionPath(),
    body: () => ({ name: 'Named' }),
    expect: permitted(200, 404),
    foreign: foreign(actionPath(), 403, 200),
  },
  {
    method: 'POST',
    route: '/steps/:stepId/move',
    path: rememberedActionPath('/move'),
    body: () => ({ previousStepId: lastFlow?.steps[0]?.id }),
    expect: permitted(200, 404),
    foreign: foreign(rememberedActionPath('/move'), 403, 200),
  },
  {
    method: 'DELETE',
    route: '/steps/:stepId',
    path: actionPath(),
    expect: permitted(204, 404),
    foreign: foreign(actionPath(), 403, 204),
  },
  {
    method: 'GET',
    route: '/steps/:stepId/previous-steps',
    path: actionPath('/previous-steps'),
    expect: permitted(200, 404),
    foreign: foreign(actionPath('/previous-steps'), 200, 200),
  },
  {
    method: 'GET',
    route: '/steps/:stepId/connection',
    path: connectedStep('/connection'),
    expect: permitted(200, 404),
    // The flow is readable to the second caller, but the connection in it is not.
    foreign: foreign(connectedStep('/connection'), 404, 200),
  },
  {
    method: 'POST',
    route: '/steps/:stepId/dynamic-data',
    path: connectedStep('/dynamic-data'),
    body: () => ({ dynamicDataKey: 'listShelves' }),
    expect: permitted(200, 404),
    foreign: foreign(connectedStep('/dynamic-data'), 403, 200),
  },
  {
    method: 'POST',
    route: '/steps/:stepId/dynamic-fields',
    path: connectedStep('/dynamic-fields'),
    body: () => ({ dynamicFieldsKey: 'noteFields', parameters: { kind: 'memo' } }),
    expect: permitted(200, 404),
    foreign: foreign(connectedStep('/dynamic-fields'), 403, 200),
  },
  { method: 'GET', route: '/folders', path: () => '/folders', expect: permitted(200) },
  {
    method: 'POST',
    route: '/folders',
    path: () => '/folders',
    body: () => ({ name: `Folder ${unique()}` }),
    expect: permitted(201),
  },
  {
    method: 'PATCH',
    route: '/folders/:folderId',
    path: folderPath,
    body: () => ({ name: `Renamed ${unique()}` }),
    expect: permitted(200),
    // Folders are personal: no role reaches into another user's.
    foreign: foreign(folderPath, 404, 404),
  },
  {
    method: 'DELETE',
    route: '/folders/:folderId',
    path: folderPath,
    expect: permitted(204),
    foreign: foreign(folderPath, 404, 404),
  },
  { method: 'GET', route: '/templates', ee: true, path: () => '/templates', expect: signedIn(200) },
  { method: 'GET', route: '/templates/built-in', path: () => '/templates/built-in', expect: signedIn(200) },
  { method: 'GET', route: '/admin/templates', ee: true, path: () => '/admin/templates', expect: adminOnly(200) },
  {
    method: 'GET',
    route: '/admin/templates/:templateId',
    ee: true,
    path: (fx) => `/admin/templates/${fx.templateId}`,
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/admin/templates',
    ee: true,
    path: async (fx) => {
      remember(await flowFor(fx, null));
      return '/admin/templates';
    },
    body: () => ({ name: `Template ${unique()}`, flowId: lastFlow?.id }),
    expect: adminOnly(201),
  },
  {
    method: 'PATCH',
    route: '/admin/templates/:templateId',
    ee: true,
    path: (fx) => `/admin/templates/${fx.templateId}`,
    body: () => ({ name: `Renamed ${unique()}` }),
    expect: adminOnly(200),
  },
  {
    method: 'DELETE',
    route: '/admin/templates/:templateId',
    ee: true,
    path: async (fx) => `/admin/templates/${await newTemplate(fx)}`,
    expect: adminOnly(204),
  },
];
