import type { Permission } from '../../core/domain/role.js';
import type { DialectName } from './databases.js';
import { enterpriseEnv } from './enterprise.js';
import { FLOW_TEST_APPS, NOTES_CREDENTIALS } from './flow-apps.js';
import {
  BOB,
  enableRegistration,
  installAndSignIn,
  registerAndSignIn,
  signIn,
  startTestInstance,
  type TestInstance,
} from './http.js';

export interface FlowWorld {
  readonly instance: TestInstance;
  readonly adminToken: string;
  readonly bob: { readonly id: string; readonly token: string };
  /** Answers the body's `data`, failing loudly on an unexpected status. */
  call(method: string, path: string, token: string, body?: unknown, status?: number): Promise<any>;
  /** A new flow of the token's owner: its id and its trigger's and action's ids. */
  newFlow(token: string): Promise<{ id: string; triggerId: string; actionId: string }>;
  /** A test-notes connection of the token's owner. */
  newNotesConnection(token: string): Promise<string>;
  /** A signed-in user whose role holds exactly these permissions. */
  userWith(permissions: readonly Permission[]): Promise<{ id: string; token: string }>;
  close(): Promise<void>;
}

/** A licensed instance with the tests' apps, an administrator and a User-role user, Bob. */
export const startFlowWorld = async (dialect: DialectName, env: Record<string, string> = {}): Promise<FlowWorld> => {
  const instance = await startTestInstance(dialect, { ...enterpriseEnv(), ...env }, { apps: FLOW_TEST_APPS });
  const adminToken = await installAndSignIn(instance);
  await enableRegistration(instance, adminToken);
  const bob = await registerAndSignIn(instance, BOB);
  let serial = 0;

  const call = async (method: string, path: string, token: string, body?: unknown, status?: number) => {
    const res = await instance.request(method, path, { token, ...(body !== undefined && { body }) });
    const expected = status ?? (method === 'POST' ? 201 : method === 'DELETE' ? 204 : 200);
    if (res.status !== expected) {
      throw new Error(`${method} ${path}: expected ${expected}, got ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body?.data;
  };

  return {
    instance,
    adminToken,
    bob,
    call,
    async newFlow(token) {
      const flow = await call('POST', '/flows', token);
      return { id: flow.id, triggerId: flow.steps[0].id, actionId: flow.steps[1].id };
    },
    async newNotesConnection(token) {
      return (await call('POST', '/apps/test-notes/connections', token, { formattedData: NOTES_CREDENTIALS })).id;
    },
    async userWith(permissions) {
      serial += 1;
      const role = await call('POST', '/admin/roles', adminToken, { name: `Role ${serial}`, permissions });
      const email = `member-${serial}@example.com`;
      const invited = await call('POST', '/admin/users', adminToken, { fullName: 'Member', email, roleId: role.id });
      const token = new URL(invited.acceptInvitationUrl).searchParams.get('token');
      await call('POST', '/users/invitation', '', { token, password: 'member password' }, 204);
      return { id: invited.id, token: await signIn(instance, email, 'member password') };
    },
    close: () => instance.close(),
  };
};

/** Makes the flow's trigger a test webhook and its action a complete notes action. */
export const completeFlow = async (world: FlowWorld, token: string, flow: { triggerId: string; actionId: string }) => {
  const connectionId = await world.newNotesConnection(token);
  await world.call('PATCH', `/steps/${flow.triggerId}`, token, { appKey: 'test-webhook', key: 'catchRawWebhook' });
  return world.call('PATCH', `/steps/${flow.actionId}`, token, {
    appKey: 'test-notes',
    key: 'addNote',
    connectionId,
    parameters: { title: `{{step.${flow.triggerId}.body.title}}`, copies: 2 },
  });
};

export const READ_ALL_MANAGE_OWN: readonly Permission[] = [
  { action: 'read', subject: 'Flow', conditions: [] },
  { action: 'manage', subject: 'Flow', conditions: ['isCreator'] },
  { action: 'read', subject: 'Connection', conditions: ['isCreator'] },
  { action: 'manage', subject: 'Connection', conditions: ['isCreator'] },
];
export const MANAGE_ALL: readonly Permission[] = [
  { action: 'manage', subject: 'Flow', conditions: [] },
  { action: 'manage', subject: 'Connection', conditions: [] },
];
