import { makeDeleteUser } from './admin-users/delete-user.js';
import { makeGetUser } from './admin-users/get-user.js';
import { makeInviteUser } from './admin-users/invite-user.js';
import { makeListUsers } from './admin-users/list-users.js';
import { makeUpdateUser } from './admin-users/update-user.js';
import { makeCreateApiToken } from './api-tokens/create-api-token.js';
import { makeDeleteApiToken } from './api-tokens/delete-api-token.js';
import { makeListApiTokens } from './api-tokens/list-api-tokens.js';
import { makeAppAdministration } from './app-admin/app-admin.js';
import { makeAppQueries } from './apps/app-queries.js';
import { makeAuthenticate } from './auth/authenticate.js';
import { makeRevokeAccessToken } from './auth/revoke-access-token.js';
import { makeSignIn } from './auth/sign-in.js';
import { makeCreateConnection } from './connections/create-connection.js';
import { makeDeleteConnection } from './connections/delete-connection.js';
import { makeGenerateAuthUrl } from './connections/generate-auth-url.js';
import { makeGetConnection } from './connections/get-connection.js';
import { makeResetConnection } from './connections/reset-connection.js';
import { makeUpdateConnection } from './connections/update-connection.js';
import { makeTestConnection, makeVerifyConnection } from './connections/verify-connection.js';
import type { CoreDeps } from './deps.js';
import { makeInstallFirstAdmin } from './installation/install-first-admin.js';
import { makeGetInstanceConfig } from './instance/get-instance-config.js';
import { makeGetLicenseStatus } from './instance/get-license-status.js';
import { makeGetServiceInfo } from './instance/get-service-info.js';
import { makeUpdateInstanceConfig } from './instance/update-instance-config.js';
import { makeCreateRole } from './roles/create-role.js';
import { makeDeleteRole } from './roles/delete-role.js';
import { makeGetPermissionCatalog } from './roles/get-permission-catalog.js';
import { makeGetRole } from './roles/get-role.js';
import { makeListRoles } from './roles/list-roles.js';
import { makeUpdateRole } from './roles/update-role.js';
import { makeAcceptInvitation } from './users/accept-invitation.js';
import { makeChangeOwnPassword } from './users/change-own-password.js';
import { makeDeleteOwnAccount } from './users/delete-own-account.js';
import { makeForgotPassword } from './users/forgot-password.js';
import { makeGetCurrentUser } from './users/get-current-user.js';
import { makeRegisterUser } from './users/register-user.js';
import { makeResetPassword } from './users/reset-password.js';
import { makeUpdateOwnProfile } from './users/update-own-profile.js';

/** The application's whole public surface: every driving adapter (HTTP, GraphQL, CLI) calls these. */
export const buildUseCases = (deps: CoreDeps) => ({
  getServiceInfo: makeGetServiceInfo(deps),
  updateInstanceConfig: makeUpdateInstanceConfig(deps),
  installFirstAdmin: makeInstallFirstAdmin(deps),
  signIn: makeSignIn(deps),
  authenticate: makeAuthenticate(deps),
  revokeAccessToken: makeRevokeAccessToken(deps),
  getCurrentUser: makeGetCurrentUser(),
  updateOwnProfile: makeUpdateOwnProfile(deps),
  changeOwnPassword: makeChangeOwnPassword(deps),
  deleteOwnAccount: makeDeleteOwnAccount(deps),
  registerUser: makeRegisterUser(deps),
  forgotPassword: makeForgotPassword(deps),
  resetPassword: makeResetPassword(deps),
  acceptInvitation: makeAcceptInvitation(deps),

  getInstanceConfig: makeGetInstanceConfig(deps),
  getLicenseStatus: makeGetLicenseStatus(deps),

  listRoles: makeListRoles(deps),
  getRole: makeGetRole(deps),
  createRole: makeCreateRole(deps),
  updateRole: makeUpdateRole(deps),
  deleteRole: makeDeleteRole(deps),
  getPermissionCatalog: makeGetPermissionCatalog(),

  listUsers: makeListUsers(deps),
  getUser: makeGetUser(deps),
  inviteUser: makeInviteUser(deps),
  updateUser: makeUpdateUser(deps),
  deleteUser: makeDeleteUser(deps),

  createApiToken: makeCreateApiToken(deps),
  listApiTokens: makeListApiTokens(deps),
  deleteApiToken: makeDeleteApiToken(deps),

  ...makeAppQueries(deps),
  ...makeAppAdministration(deps),

  getConnection: makeGetConnection(deps),
  createConnection: makeCreateConnection(deps),
  updateConnection: makeUpdateConnection(deps),
  deleteConnection: makeDeleteConnection(deps),
  verifyConnection: makeVerifyConnection(deps),
  testConnection: makeTestConnection(deps),
  resetConnection: makeResetConnection(deps),
  generateAuthUrl: makeGenerateAuthUrl(deps),
});

export type UseCases = ReturnType<typeof buildUseCases>;
