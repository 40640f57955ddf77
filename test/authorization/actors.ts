import type { Actor } from '../../core/domain/actor.js';
import type { Permission } from '../../core/domain/role.js';
import type { TestInstance } from '../support/http.js';
import { ADMIN, enableRegistration, installAndSignIn, signIn } from '../support/http.js';

export const ACTOR_KINDS = ['anonymous', 'user', 'custom', 'admin', 'apiToken'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export interface TestActor {
  readonly kind: ActorKind;
  readonly userId: string | null;
  readonly password: string | null;
  readonly headers: Record<string, string>;
  /** The core's view of the caller, for creating resources they own; null when anonymous. */
  readonly core: Actor | null;
}

const PASSWORD = 'matrix password';

/** Makes the actors of the matrix: each call gives a new account of the kind asked for. */
export const actorFactory = async (instance: TestInstance) => {
  const adminToken = await installAndSignIn(instance);
  await enableRegistration(instance, adminToken);
  const uc = instance.conveyor.useCases;
  const adminActor = await uc.authenticate({ kind: 'access-token', token: adminToken });
  if (!adminActor) throw new Error('admin did not authenticate');
  const roles = await uc.listRoles(adminActor);
  if (!roles.ok) throw new Error('could not list roles');
  const adminRoleId = roles.value.find((r) => r.isAdmin)?.id ?? '';
  const custom = await uc.createRole(adminActor, { name: 'No permissions', description: null, permissions: [] });
  if (!custom.ok) throw new Error('could not create the custom role');

  let serial = 0;
  const invited = async (roleId: string) => {
    serial += 1;
    const invitation = await uc.inviteUser(adminActor, {
      fullName: `Invited ${serial}`,
      email: `invited-${serial}@example.com`,
      roleId,
    });
    if (!invitation.ok) throw new Error(`invitation failed: ${invitation.error.code}`);
    const token = new URL(invitation.value.acceptInvitationUrl).searchParams.get('token') ?? '';
    const accepted = await uc.acceptInvitation({ token, password: PASSWORD });
    if (!accepted.ok) throw new Error('acceptance failed');
    return { userId: invitation.value.user.id, token: await signIn(instance, invitation.value.user.email, PASSWORD) };
  };
  const core = async (token: string) => uc.authenticate({ kind: 'access-token', token });
  const bearer = async (kind: ActorKind, account: { userId: string; token: string }): Promise<TestActor> => ({
    kind,
    userId: account.userId,
    password: PASSWORD,
    headers: { authorization: `Bearer ${account.token}` },
    core: await core(account.token),
  });

  const make = async (kind: ActorKind): Promise<TestActor> => {
    switch (kind) {
      case 'anonymous':
        return { kind, userId: null, password: null, headers: {}, core: null };
      case 'user': {
        serial += 1;
        const email = `user-${serial}@example.com`;
        const res = await instance.request('POST', '/users', {
          body: { fullName: `User ${serial}`, email, password: PASSWORD },
        });
        return bearer(kind, { userId: res.body.data.id, token: await signIn(instance, email, PASSWORD) });
      }
      case 'custom':
        return bearer(kind, await invited(custom.value.id));
      case 'admin':
        return bearer(kind, await invited(adminRoleId));
      case 'apiToken': {
        const admin = await invited(adminRoleId);
        const actor = await uc.authenticate({ kind: 'access-token', token: admin.token });
        if (!actor) throw new Error('fresh admin did not authenticate');
        const created = await uc.createApiToken(actor);
        if (!created.ok) throw new Error('could not create an API token');
        return {
          kind,
          userId: admin.userId,
          password: PASSWORD,
          headers: { 'x-api-token': created.value.token },
          core: actor,
        };
      }
    }
  };

  /** A User-like caller whose role holds exactly these permissions. */
  const makeWith = async (permissions: readonly Permission[]): Promise<TestActor> => {
    serial += 1;
    const role = await uc.createRole(adminActor, { name: `Matrix role ${serial}`, description: null, permissions });
    if (!role.ok) throw new Error(`could not create a role: ${role.error.code}`);
    return bearer('user', await invited(role.value.id));
  };

  return {
    make,
    makeWith,
    useCases: uc,
    adminActor,
    adminId: adminActor.user.id,
    adminToken,
    adminPassword: ADMIN.password,
    customRoleId: custom.value.id,
    adminRoleId,
  };
};

export type ActorFactory = Awaited<ReturnType<typeof actorFactory>>;
