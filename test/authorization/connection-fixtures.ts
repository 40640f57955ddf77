import type { ActorFactory, TestActor } from './actors.js';

/** Credentials of a PostgreSQL connection that fails fast on verification (nothing listens on port 1). */
export const UNREACHABLE_POSTGRES = {
  host: '127.0.0.1',
  port: 1,
  database: 'conveyor',
  user: 'conveyor',
  password: 'not-a-real-password',
  ssl: false,
};
export const OWN_OAUTH_CLIENT = { clientId: 'matrix-client', clientSecret: 'matrix-secret' };

/**
 * A connection of `appKey` owned by the caller when their role may create one; otherwise the
 * administrator's, which such a caller cannot see.
 */
export const connectionFor = async (fx: ActorFactory, actor: TestActor, appKey: 'postgresql' | 'github') => {
  const formattedData = appKey === 'postgresql' ? UNREACHABLE_POSTGRES : OWN_OAUTH_CLIENT;
  if (actor.core) {
    const own = await fx.useCases.createConnection(actor.core, appKey, { formattedData });
    if (own.ok) return own.value.id;
  }
  const admins = await fx.useCases.createConnection(fx.adminActor, appKey, { formattedData });
  if (!admins.ok) throw new Error(`could not create a ${appKey} connection: ${admins.error.code}`);
  return admins.value.id;
};

/** A connection of the installing administrator: another user's resource for everyone else. */
export const adminsConnection = async (fx: ActorFactory, appKey: 'postgresql' | 'github') => {
  const formattedData = appKey === 'postgresql' ? UNREACHABLE_POSTGRES : OWN_OAUTH_CLIENT;
  const created = await fx.useCases.createConnection(fx.adminActor, appKey, { formattedData });
  if (!created.ok) throw new Error(`could not create a ${appKey} connection: ${created.error.code}`);
  return created.value.id;
};

/** An active OAuth client of the github app and a PostgreSQL app configuration, made once. */
export const appAdministrationFixtures = async (fx: ActorFactory) => {
  const config = await fx.useCases.createAppConfig(fx.adminActor, 'postgresql', {});
  if (!config.ok) throw new Error(`could not configure postgresql: ${config.error.code}`);
  const client = await fx.useCases.createOAuthClient(fx.adminActor, 'github', {
    name: 'Matrix client',
    active: true,
    formattedAuthDefaults: OWN_OAUTH_CLIENT,
  });
  if (!client.ok) throw new Error(`could not create an OAuth client: ${client.error.code}`);
  return { oauthClientId: client.value.id };
};
