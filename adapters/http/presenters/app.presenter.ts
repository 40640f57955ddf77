import type { AppDescription, StepDescription } from '../../../core/domain/app.js';
import { needsConnection, requiresConnection } from '../../../core/domain/app.js';
import type { AppConfig, OAuthClient } from '../../../core/domain/app-config.js';
import type { Connection } from '../../../core/domain/connection.js';
import type { Answer } from '../schemas/resources.schemas.js';
import { epochMs } from './timestamp.js';

export const presentApp = (app: AppDescription): Answer<'App'> => ({
  key: app.key,
  name: app.name,
  description: app.description,
  iconUrl: app.iconUrl,
  primaryColor: app.primaryColor,
  categories: app.categories,
  version: app.version,
  authKind: app.auth.kind,
  supportsConnections: needsConnection(app),
  connectionOptional: needsConnection(app) && !requiresConnection(app),
  triggerCount: app.triggers.length,
  actionCount: app.actions.length,
  capabilities: app.capabilities ?? [],
});

export const presentStep = (step: StepDescription) => ({
  key: step.key,
  name: step.name,
  description: step.description,
  ...(step.type && { type: step.type }),
  arguments: step.arguments,
  ...(step.dynamicFieldsKey && { dynamicFieldsKey: step.dynamicFieldsKey }),
});

interface StepArgument {
  readonly name: string;
  /** Automatisch's client fills it in: `{key}`, `{fields.all}`, `{generateAuthUrl.url}`, ... */
  readonly value: string;
}

/** One REST call of a connecting sequence: Automatisch's step, with the call it stands for. */
const mutation = (name: string, method: string, path: string, args: readonly StepArgument[] = []) => ({
  type: 'mutation' as const,
  name,
  arguments: args,
  method,
  path,
});

const verify = mutation('verifyConnection', 'POST', '/connections/:connectionId/verify');
const reset = mutation('resetConnection', 'POST', '/connections/:connectionId/reset');
const update = (args: readonly StepArgument[]) =>
  mutation('updateConnection', 'PATCH', '/connections/:connectionId', args);
const formattedData = (source: string): StepArgument => ({ name: 'formattedData', value: `{${source}.all}` });
const oauthClientId: StepArgument = { name: 'oauthClientId', value: '{oauthClientId}' };
/** The provider's consent page, opened in a window; what it sends back becomes the connection's data. */
const consent = [
  mutation('generateAuthUrl', 'POST', '/connections/:connectionId/auth-url'),
  {
    type: 'openWithPopup' as const,
    name: 'openAuthPopup',
    arguments: [{ name: 'url', value: '{generateAuthUrl.url}' }],
  },
  update([formattedData('openAuthPopup')]),
  verify,
];

/**
 * How a client connects the app, as the steps Automatisch's web client runs in order
 * (`type`, `name`, `arguments`, in the same positions as Automatisch's), each mutation also naming
 * the REST call it is. Reconnecting resets the connection, then gives the data anew. OAuth2 apps
 * also describe the path through an administrator's OAuth client (`shared...`).
 */
export const presentAuth = (app: AppDescription) => {
  if (app.auth.kind === 'none') {
    return { kind: app.auth.kind, fields: app.auth.fields, authenticationSteps: [], reconnectionSteps: [] };
  }
  const create = (args: readonly StepArgument[]) =>
    mutation('createConnection', 'POST', `/apps/${app.key}/connections`, [{ name: 'key', value: '{key}' }, ...args]);
  const completion = app.auth.kind === 'oauth2' ? consent : [verify];
  const authenticationSteps = [create([formattedData('fields')]), ...completion];
  const reconnectionSteps = [reset, update([formattedData('fields')]), ...completion];
  if (app.auth.kind !== 'oauth2') {
    return { kind: app.auth.kind, fields: app.auth.fields, authenticationSteps, reconnectionSteps };
  }
  return {
    kind: app.auth.kind,
    fields: [...app.auth.clientFields, ...app.auth.fields],
    authenticationSteps,
    reconnectionSteps,
    sharedAuthenticationSteps: [create([oauthClientId]), ...consent],
    sharedReconnectionSteps: [reset, update([oauthClientId]), ...consent],
  };
};

/** A connection shows only its display name: credentials have no presenter field. */
export const presentConnection = (connection: Connection): Answer<'Connection'> => ({
  id: connection.id,
  key: connection.appKey,
  appAuthClientId: connection.oauthClientId,
  formattedData: { screenName: connection.screenName },
  verified: connection.verified,
  createdAt: epochMs(connection.createdAt),
  updatedAt: epochMs(connection.updatedAt),
});

export const presentAppConfig = (config: AppConfig): Answer<'AppConfig'> => ({
  key: config.appKey,
  disabled: config.disabled,
  useOnlyPredefinedAuthClients: config.useOnlyPredefinedAuthClients,
  createdAt: epochMs(config.createdAt),
  updatedAt: epochMs(config.updatedAt),
});

export const presentOAuthClient = (client: OAuthClient): Answer<'OAuthClient'> => ({
  id: client.id,
  appKey: client.appKey,
  name: client.name,
  active: client.active,
  createdAt: epochMs(client.createdAt),
  updatedAt: epochMs(client.updatedAt),
});
