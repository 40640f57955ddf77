import type { AppDescription, StepDescription } from '../../../core/domain/app.js';
import { needsConnection } from '../../../core/domain/app.js';
import type { AppConfig, OAuthClient } from '../../../core/domain/app-config.js';
import type { Connection } from '../../../core/domain/connection.js';

export const presentApp = (app: AppDescription) => ({
  key: app.key,
  name: app.name,
  description: app.description,
  iconUrl: app.iconUrl,
  primaryColor: app.primaryColor,
  version: app.version,
  authKind: app.auth.kind,
  supportsConnections: needsConnection(app),
  triggerCount: app.triggers.length,
  actionCount: app.actions.length,
});

export const presentStep = (step: StepDescription) => ({
  key: step.key,
  name: step.name,
  description: step.description,
  ...(step.type && { type: step.type }),
  arguments: step.arguments,
  ...(step.dynamicFieldsKey && { dynamicFieldsKey: step.dynamicFieldsKey }),
});

const endpoint = (name: string, method: string, path: string, fields?: unknown) => ({
  name,
  method,
  path,
  ...(fields !== undefined && { fields }),
});

/**
 * How a client connects the app, as the REST calls to make in order. OAuth2 apps also describe the
 * shorter path through an administrator's OAuth client (`sharedAuthenticationSteps`).
 */
export const presentAuth = (app: AppDescription) => {
  const create = (fields: unknown) => endpoint('createConnection', 'POST', `/apps/${app.key}/connections`, fields);
  const update = (fields: unknown) => endpoint('updateConnection', 'PATCH', '/connections/:connectionId', fields);
  const verify = endpoint('verifyConnection', 'POST', '/connections/:connectionId/verify');
  if (app.auth.kind === 'oauth2') {
    const consent = [
      endpoint('generateAuthUrl', 'POST', '/connections/:connectionId/auth-url'),
      { name: 'openWithPopup', description: 'Open the URL; the provider redirects back with code and state.' },
      update(['code', 'state']),
      verify,
    ];
    return {
      kind: app.auth.kind,
      fields: [...app.auth.clientFields, ...app.auth.fields],
      authenticationSteps: [create(app.auth.clientFields.map((f) => f.key)), ...consent],
      reconnectionSteps: [endpoint('resetConnection', 'POST', '/connections/:connectionId/reset'), ...consent],
      sharedAuthenticationSteps: [create(['appAuthClientId']), ...consent],
    };
  }
  const fieldKeys = app.auth.fields.map((f) => f.key);
  return {
    kind: app.auth.kind,
    fields: app.auth.fields,
    authenticationSteps: app.auth.kind === 'none' ? [] : [create(fieldKeys), verify],
    reconnectionSteps: app.auth.kind === 'none' ? [] : [update(fieldKeys), verify],
  };
};

/** A connection shows only its display name: credentials have no presenter field. */
export const presentConnection = (connection: Connection) => ({
  id: connection.id,
  key: connection.appKey,
  appAuthClientId: connection.oauthClientId,
  formattedData: { screenName: connection.screenName },
  verified: connection.verified,
  createdAt: connection.createdAt.toISOString(),
  updatedAt: connection.updatedAt.toISOString(),
});

export const presentAppConfig = (config: AppConfig) => ({
  key: config.appKey,
  disabled: config.disabled,
  useOnlyPredefinedAuthClients: config.useOnlyPredefinedAuthClients,
  createdAt: config.createdAt.toISOString(),
  updatedAt: config.updatedAt.toISOString(),
});

export const presentOAuthClient = (client: OAuthClient) => ({
  id: client.id,
  appKey: client.appKey,
  name: client.name,
  active: client.active,
  createdAt: client.createdAt.toISOString(),
  updatedAt: client.updatedAt.toISOString(),
});
