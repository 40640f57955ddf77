import type { ActorFactory, TestActor } from './actors.js';
import { AGENT_ROUTES } from './agent-routes.js';
import { BILLING_ROUTES } from './billing-routes.js';
import { adminsConnection, connectionFor, OWN_OAUTH_CLIENT, UNREACHABLE_POSTGRES } from './connection-fixtures.js';
import { EXECUTION_ROUTES } from './execution-routes.js';
import { FLOW_ROUTES } from './flow-routes.js';
import { FORM_ROUTES } from './form-routes.js';
import { MCP_SERVER_ROUTES } from './mcp-server-routes.js';
import { adminOnly, everyone, MISSING, permitted, type RouteCase, signedIn, unique } from './route-case.js';
import { SAML_ROUTES } from './saml-routes.js';

export type { MatrixFixtures, RouteCase } from './route-case.js';

const own = (actor: TestActor) => actor.userId ?? MISSING;

const newInvitedUser = async (fx: ActorFactory) => {
  const invitation = await fx.useCases.inviteUser(fx.adminActor, {
    fullName: 'Target',
    email: `target-${unique()}@example.com`,
    roleId: fx.customRoleId,
  });
  if (!invitation.ok) throw new Error('could not invite a target user');
  return invitation.value.user.id;
};
const newRole = async (fx: ActorFactory) => {
  const role = await fx.useCases.createRole(fx.adminActor, {
    name: `Role ${unique()}`,
    description: null,
    permissions: [],
  });
  if (!role.ok) throw new Error('could not create a target role');
  return role.value.id;
};
const newApiToken = async (fx: ActorFactory) => {
  const token = await fx.useCases.createApiToken(fx.adminActor);
  if (!token.ok) throw new Error('could not create a target API token');
  return token.value.id;
};

/** Every route that exists, with what each kind of caller must get. One line (or a few) per route. */
export const ROUTES: readonly RouteCase[] = [
  // The instance's self-description, also under Automatisch's prefix for its clients.
  ...['/service', '/automatisch'].flatMap((prefix) =>
    ['info', 'version', 'license', 'config', 'notifications'].map(
      (name): RouteCase => ({
        method: 'GET',
        route: `${prefix}/${name}`,
        path: () => `${prefix}/${name}`,
        expect: everyone(200),
      }),
    ),
  ),
  { method: 'GET', route: '/api/openapi.json', mount: '', path: () => '/api/openapi.json', expect: everyone(200) },
  { method: 'GET', route: '/api/docs', mount: '', path: () => '/api/docs', expect: everyone(200) },
  {
    method: 'POST',
    route: '/installation/users',
    path: () => '/installation/users',
    body: () => ({ email: `late-${unique()}@example.com`, password: 'password123', fullName: 'Late' }),
    expect: everyone(403),
  },
  {
    method: 'POST',
    route: '/access-tokens',
    path: () => '/access-tokens',
    body: (fx) => ({ email: 'ada@example.com', password: fx.adminPassword }),
    expect: everyone(200),
  },
  {
    method: 'DELETE',
    route: '/access-tokens/:token',
    path: () => '/access-tokens/not-a-token-of-anyone',
    expect: { anonymous: 401, user: 404, custom: 404, admin: 404, apiToken: 404 },
    foreign: { path: (fx) => `/access-tokens/${fx.adminToken}`, status: 404 },
  },
  // The console's cookie session: opened and closed only with the console's header (none here).
  { method: 'GET', route: '/session', path: () => '/session', expect: everyone(200) },
  {
    method: 'POST',
    route: '/session',
    path: () => '/session',
    body: (fx) => ({ email: 'ada@example.com', password: fx.adminPassword }),
    expect: everyone(403),
  },
  { method: 'DELETE', route: '/session', path: () => '/session', expect: everyone(403) },
  { method: 'GET', route: '/users/me', path: () => '/users/me', expect: signedIn(200) },
  {
    method: 'PATCH',
    route: '/users/:userId',
    path: (_fx, actor) => `/users/${own(actor)}`,
    body: () => ({ fullName: 'Renamed' }),
    expect: signedIn(200),
    foreign: { path: (fx) => `/users/${fx.adminId}`, status: 403 },
  },
  {
    method: 'PATCH',
    route: '/users/:userId/password',
    freshActor: true,
    path: (_fx, actor) => `/users/${own(actor)}/password`,
    body: (_fx, actor) => ({ currentPassword: actor.password ?? 'x', password: 'another password' }),
    expect: signedIn(200),
    foreign: { path: (fx) => `/users/${fx.adminId}/password`, status: 403 },
  },
  {
    method: 'DELETE',
    route: '/users/:userId',
    freshActor: true,
    path: (_fx, actor) => `/users/${own(actor)}`,
    expect: signedIn(204),
    foreign: { path: (fx) => `/users/${fx.adminId}`, status: 403 },
  },
  {
    method: 'POST',
    route: '/users',
    path: () => '/users',
    body: () => ({ fullName: 'New', email: `new-${unique()}@example.com`, password: 'password123' }),
    expect: everyone(201),
  },
  {
    method: 'POST',
    route: '/users/forgot-password',
    path: () => '/users/forgot-password',
    body: () => ({ email: 'nobody@example.com' }),
    expect: everyone(204),
  },
  {
    method: 'POST',
    route: '/users/reset-password',
    path: () => '/users/reset-password',
    body: () => ({ token: 'forged', password: 'password123' }),
    expect: everyone(422),
  },
  {
    method: 'POST',
    route: '/users/invitation',
    path: () => '/users/invitation',
    body: () => ({ token: 'forged', password: 'password123' }),
    expect: everyone(422),
  },
  { method: 'GET', route: '/admin/users', path: () => '/admin/users', expect: adminOnly(200) },
  {
    method: 'POST',
    route: '/admin/users',
    path: () => '/admin/users',
    body: (fx) => ({ fullName: 'Invitee', email: `invitee-${unique()}@example.com`, roleId: fx.customRoleId }),
    expect: adminOnly(201),
  },
  { method: 'GET', route: '/admin/users/:userId', path: (fx) => `/admin/users/${fx.adminId}`, expect: adminOnly(200) },
  {
    method: 'PATCH',
    route: '/admin/users/:userId',
    path: async (fx) => `/admin/users/${await newInvitedUser(fx)}`,
    body: () => ({ fullName: 'Changed by an admin' }),
    expect: adminOnly(200),
  },
  {
    method: 'DELETE',
    route: '/admin/users/:userId',
    path: async (fx) => `/admin/users/${await newInvitedUser(fx)}`,
    expect: adminOnly(204),
  },
  { method: 'GET', route: '/admin/roles', path: () => '/admin/roles', expect: adminOnly(200) },
  {
    method: 'GET',
    route: '/admin/roles/:roleId',
    path: (fx) => `/admin/roles/${fx.customRoleId}`,
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/admin/roles',
    ee: true,
    path: () => '/admin/roles',
    body: () => ({ name: `Role ${unique()}`, permissions: [{ action: 'read', subject: 'Flow', conditions: [] }] }),
    expect: adminOnly(201),
  },
  {
    method: 'PATCH',
    route: '/admin/roles/:roleId',
    ee: true,
    path: async (fx) => `/admin/roles/${await newRole(fx)}`,
    body: () => ({ name: `Renamed ${unique()}`, permissions: [] }),
    expect: adminOnly(200),
  },
  {
    method: 'DELETE',
    route: '/admin/roles/:roleId',
    ee: true,
    path: async (fx) => `/admin/roles/${await newRole(fx)}`,
    expect: adminOnly(204),
  },
  {
    method: 'GET',
    route: '/admin/permissions/catalog',
    ee: true,
    path: () => '/admin/permissions/catalog',
    expect: adminOnly(200),
  },
  { method: 'POST', route: '/admin/api-tokens', ee: true, path: () => '/admin/api-tokens', expect: adminOnly(201) },
  { method: 'GET', route: '/admin/api-tokens', ee: true, path: () => '/admin/api-tokens', expect: adminOnly(200) },
  {
    method: 'DELETE',
    route: '/admin/api-tokens/:apiTokenId',
    ee: true,
    path: async (fx) => `/admin/api-tokens/${await newApiToken(fx)}`,
    expect: adminOnly(204),
  },
  {
    method: 'PATCH',
    route: '/admin/config',
    ee: true,
    path: () => '/admin/config',
    body: () => ({ title: 'Matrix' }),
    expect: adminOnly(200),
  },
  { method: 'GET', route: '/apps', path: () => '/apps', expect: signedIn(200) },
  { method: 'GET', route: '/apps/:appKey', path: () => '/apps/postgresql', expect: signedIn(200) },
  { method: 'GET', route: '/apps/:appKey/auth', path: () => '/apps/github/auth', expect: signedIn(200) },
  { method: 'GET', route: '/apps/:appKey/triggers', path: () => '/apps/postgresql/triggers', expect: signedIn(200) },
  { method: 'GET', route: '/apps/:appKey/actions', path: () => '/apps/postgresql/actions', expect: signedIn(200) },
  {
    method: 'GET',
    route: '/apps/:appKey/triggers/:triggerKey/substeps',
    path: () => '/apps/webhook/triggers/catchRawWebhook/substeps',
    expect: signedIn(200),
  },
  {
    method: 'GET',
    route: '/apps/:appKey/actions/:actionKey/substeps',
    path: () => '/apps/postgresql/actions/SQLQuery/substeps',
    expect: signedIn(200),
  },
  {
    method: 'GET',
    route: '/apps/:appKey/connections',
    path: () => '/apps/postgresql/connections',
    expect: permitted(200),
  },
  {
    method: 'POST',
    route: '/apps/:appKey/connections',
    path: () => '/apps/postgresql/connections',
    body: () => ({ formattedData: UNREACHABLE_POSTGRES }),
    expect: permitted(201),
  },
  { method: 'GET', route: '/apps/:appKey/flows', path: () => '/apps/postgresql/flows', expect: permitted(200) },
  {
    method: 'GET',
    route: '/apps/:appKey/config',
    ee: true,
    path: () => '/apps/postgresql/config',
    expect: signedIn(200),
  },
  {
    method: 'GET',
    route: '/apps/:appKey/auth-clients',
    ee: true,
    path: () => '/apps/github/auth-clients',
    expect: signedIn(200),
  },
  {
    method: 'GET',
    route: '/apps/:appKey/auth-clients/:appAuthClientId',
    ee: true,
    path: (fx) => `/apps/github/auth-clients/${fx.oauthClientId}`,
    expect: signedIn(200),
  },
  {
    method: 'PATCH',
    route: '/connections/:connectionId',
    path: async (fx, actor) => `/connections/${await connectionFor(fx, actor, 'postgresql')}`,
    body: () => ({ formattedData: { database: 'renamed' } }),
    expect: permitted(200, 404),
    foreign: { path: async (fx) => `/connections/${await adminsConnection(fx, 'postgresql')}`, status: 404 },
  },
  {
    method: 'DELETE',
    route: '/connections/:connectionId',
    path: async (fx, actor) => `/connections/${await connectionFor(fx, actor, 'postgresql')}`,
    expect: permitted(204, 404),
    foreign: {
      path: async (fx) => `/connections/${await adminsConnection(fx, 'postgresql')}`,
      status: 404,
      readAllManageOwn: 404,
      manageAll: 204,
    },
  },
  {
    method: 'POST',
    route: '/connections/:connectionId/verify',
    path: async (fx, actor) => `/connections/${await connectionFor(fx, actor, 'postgresql')}/verify`,
    // Allowed callers reach the check, which fails: nothing listens there.
    expect: permitted(422, 404),
    foreign: {
      path: async (fx) => `/connections/${await adminsConnection(fx, 'postgresql')}/verify`,
      status: 404,
      readAllManageOwn: 404,
      manageAll: 422,
    },
  },
  {
    method: 'POST',
    route: '/connections/:connectionId/test',
    path: async (fx, actor) => `/connections/${await connectionFor(fx, actor, 'postgresql')}/test`,
    expect: permitted(200, 404),
    foreign: {
      path: async (fx) => `/connections/${await adminsConnection(fx, 'postgresql')}/test`,
      status: 404,
      readAllManageOwn: 404,
      manageAll: 200,
    },
  },
  {
    method: 'POST',
    route: '/connections/:connectionId/reset',
    path: async (fx, actor) => `/connections/${await connectionFor(fx, actor, 'postgresql')}/reset`,
    expect: permitted(200, 404),
    foreign: {
      path: async (fx) => `/connections/${await adminsConnection(fx, 'postgresql')}/reset`,
      status: 404,
      readAllManageOwn: 404,
      manageAll: 200,
    },
  },
  {
    method: 'POST',
    route: '/connections/:connectionId/auth-url',
    path: async (fx, actor) => `/connections/${await connectionFor(fx, actor, 'github')}/auth-url`,
    expect: permitted(200, 404),
    foreign: {
      path: async (fx) => `/connections/${await adminsConnection(fx, 'github')}/auth-url`,
      status: 404,
      readAllManageOwn: 404,
      manageAll: 200,
    },
  },
  {
    method: 'GET',
    route: '/connections/:connectionId/flows',
    path: async (fx, actor) => `/connections/${await connectionFor(fx, actor, 'postgresql')}/flows`,
    expect: permitted(200, 404),
    foreign: {
      path: async (fx) => `/connections/${await adminsConnection(fx, 'postgresql')}/flows`,
      status: 404,
      readAllManageOwn: 404,
      manageAll: 200,
    },
  },
  {
    method: 'GET',
    route: '/users/:userId/apps',
    path: (_fx, actor) => `/users/${own(actor)}/apps`,
    expect: signedIn(200),
    foreign: { path: (fx) => `/users/${fx.adminId}/apps`, status: 403 },
  },
  {
    method: 'POST',
    route: '/admin/apps/:appKey/config',
    ee: true,
    // Each app can be configured once: each caller configures another one.
    path: (_fx, actor) => `/admin/apps/${actor.kind === 'apiToken' ? 'github' : 'smtp'}/config`,
    body: () => ({ disabled: false }),
    expect: adminOnly(201),
  },
  {
    method: 'PATCH',
    route: '/admin/apps/:appKey/config',
    ee: true,
    path: () => '/admin/apps/postgresql/config',
    body: () => ({ useOnlyPredefinedAuthClients: false }),
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/admin/apps/:appKey/auth-clients',
    ee: true,
    path: () => '/admin/apps/github/auth-clients',
    expect: adminOnly(200),
  },
  {
    method: 'GET',
    route: '/admin/apps/:appKey/auth-clients/:appAuthClientId',
    ee: true,
    path: (fx) => `/admin/apps/github/auth-clients/${fx.oauthClientId}`,
    expect: adminOnly(200),
  },
  {
    method: 'POST',
    route: '/admin/apps/:appKey/auth-clients',
    ee: true,
    path: () => '/admin/apps/github/auth-clients',
    body: () => ({ name: `Client ${unique()}`, formattedAuthDefaults: OWN_OAUTH_CLIENT }),
    expect: adminOnly(201),
  },
  {
    method: 'PATCH',
    route: '/admin/apps/:appKey/auth-clients/:appAuthClientId',
    ee: true,
    path: (fx) => `/admin/apps/github/auth-clients/${fx.oauthClientId}`,
    body: () => ({ active: true }),
    expect: adminOnly(200),
  },
  ...FLOW_ROUTES,
  ...FORM_ROUTES,
  ...AGENT_ROUTES,
  ...MCP_SERVER_ROUTES,
  ...EXECUTION_ROUTES,
  ...SAML_ROUTES,
  ...BILLING_ROUTES,
];
