import { actorFactory } from '../authorization/actors.js';
import { appAdministrationFixtures } from '../authorization/connection-fixtures.js';
import {
  connectedStepFor,
  filedFlowFor,
  flowFor,
  folderFor,
  templateFixtures,
} from '../authorization/flow-resources.js';
import { formFor } from '../authorization/form-routes.js';
import { GRAPHQL_CASES } from '../authorization/graphql-operations.js';
import { samlFixtures } from '../authorization/saml-routes.js';
import type { DialectName } from '../support/databases.js';
import { buildFlow } from '../support/engine-flows.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { FLOW_TEST_APPS } from '../support/flow-apps.js';
import { startTestInstance, type TestInstance } from '../support/http.js';
import { ErrorCountingLogger } from './error-counting-logger.js';
import type { FuzzContext } from './routes.js';

/** A flow the fuzzer is never told about: it must read back unchanged after the run. */
export interface Sentinel {
  readonly flowId: string;
  readonly flow: unknown;
}

export interface FuzzWorld {
  readonly instance: TestInstance;
  readonly logger: ErrorCountingLogger;
  readonly context: FuzzContext;
  readonly adminToken: string;
  readonly adminHeaders: Record<string, string>;
  readonly userToken: string;
  readonly sentinel: Sentinel;
  /** Makes new flows (with their steps) and folders, for the ones the fuzzer deleted. */
  replenish(): Promise<void>;
}

/** The default body limit (BODY_LIMIT_BYTES): room for the deep and huge values of production. */
export const FUZZ_BODY_LIMIT = 1024 * 1024;

const must = (res: { status: number; body: any }, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body?.data;
};

/**
 * A licensed instance (so the enterprise routes get past their guard) with something behind every
 * kind of id: the fuzzer's real path values. The callers' own accounts and tokens are kept out of
 * them, so that no request deletes or re-passwords the fuzzer's callers; victims stand in for them.
 */
export const startFuzzWorld = async (dialect: DialectName): Promise<FuzzWorld> => {
  const logger = new ErrorCountingLogger();
  const instance = await startTestInstance(
    dialect,
    {
      ...enterpriseEnv(),
      BODY_LIMIT_BYTES: String(FUZZ_BODY_LIMIT),
      SYNC_WEBHOOK_TIMEOUT_SECONDS: '2',
      TEST_EVENT_MAX_WAIT_SECONDS: '1',
    },
    { apps: FLOW_TEST_APPS, logger },
  );
  const fx = await actorFactory(instance);
  const { oauthClientId } = await appAdministrationFixtures(fx);
  const { templateId } = await templateFixtures(fx);
  const { samlAuthProviderId } = await samlFixtures(fx);
  const user = await fx.make('user');
  const apiToken = await fx.make('apiToken');
  const victims = [await fx.make('user'), await fx.make('custom'), await fx.make('admin')];
  const admin = fx.adminToken;
  const adminHeaders = { authorization: `Bearer ${admin}` };
  const call = (method: string, path: string, body?: unknown) =>
    instance.request(method, path, { token: admin, ...(body !== undefined && { body }) });

  const flows = [await flowFor(fx, null), await flowFor(fx, user)];
  const stepIds = flows.flatMap((flow) => flow.steps.map((step) => step.id));
  stepIds.push(await connectedStepFor(fx, null), await connectedStepFor(fx, user));
  const hook = await buildFlow(instance, admin, { appKey: 'test-webhook', key: 'catchRawWebhook' }, [
    () => ({ appKey: 'test-webhook', key: 'respondWith', parameters: { statusCode: 200, body: 'received' } }),
  ]);
  must(await call('PATCH', `/flows/${hook.flowId}/status`, { active: true }), 'publish the webhook flow');
  const run = await instance.conveyor.app.request(`/webhooks/flows/${hook.flowId}/sync`, { method: 'POST' });
  if (run.status >= 300) throw new Error(`the webhook flow answered ${run.status}`);
  const executions = must(await call('GET', '/executions'), 'list executions') as { id: string }[];
  const folders = [await folderFor(fx, null), await folderFor(fx, user)];
  const forms = [await formFor(fx, null), await formFor(fx, user)];
  const filed = await filedFlowFor(fx, null);
  const role = must(
    await call('POST', '/admin/roles', { name: 'Fuzz role', description: null, permissions: [] }),
    'create a role',
  );
  const extraToken = must(await call('POST', '/admin/api-tokens'), 'create an API token');
  const provider = must(await call('GET', `/admin/saml-auth-providers/${samlAuthProviderId}`), 'read the provider');
  const connections = must(await call('GET', '/apps/test-notes/connections'), 'list connections') as { id: string }[];
  const apps = must(await call('GET', '/apps'), 'list apps') as { key: string }[];
  const notes = FLOW_TEST_APPS.find((app) => app.key === 'test-notes');

  const sentinelFlow = must(await call('POST', '/flows'), 'create the sentinel flow');
  must(await call('PATCH', `/flows/${sentinelFlow.id}`, { name: 'Sentinel' }), 'name the sentinel');
  const sentinel = { flowId: sentinelFlow.id, flow: must(await call('GET', `/flows/${sentinelFlow.id}`), 'read it') };

  const realValues = {
    flowId: [...flows.map((flow) => flow.id), hook.flowId, filed],
    stepId: [...stepIds, ...hook.stepIds],
    executionId: executions.map((execution) => execution.id),
    folderId: folders,
    formId: forms,
    templateId: [templateId],
    userId: victims.map((victim) => victim.userId as string),
    roleId: [role.id, fx.customRoleId],
    apiTokenId: [extraToken.id],
    samlAuthProviderId: [samlAuthProviderId],
    issuer: [provider.issuer],
    connectionId: connections.map((connection) => connection.id),
    appAuthClientId: [oauthClientId],
    appKey: apps.map((app) => app.key),
    triggerKey: ['catchRawWebhook', ...(notes?.triggers.map((trigger) => trigger.key) ?? [])],
    actionKey: ['respondWith', ...(notes?.actions.map((action) => action.key) ?? [])],
  };
  const uuids = Object.values(realValues)
    .flat()
    .filter((value) => /^[0-9a-f-]{36}$/.test(value));
  const replenish = async () => {
    for (const by of [null, user]) {
      const flow = await flowFor(fx, by);
      const steps = flow.steps.map((step) => step.id);
      const folder = await folderFor(fx, by);
      realValues.flowId.push(flow.id);
      realValues.stepId.push(...steps);
      realValues.folderId.push(folder);
      uuids.push(flow.id, ...steps, folder);
    }
  };
  return {
    replenish,
    instance,
    logger,
    adminToken: admin,
    adminHeaders,
    userToken: user.headers.authorization?.slice('Bearer '.length) ?? '',
    sentinel,
    context: {
      realValues,
      pool: { ids: uuids },
      callers: [{}, user.headers, adminHeaders, apiToken.headers],
      graphqlQueries: GRAPHQL_CASES.map((operation) => operation.query),
    },
  };
};
