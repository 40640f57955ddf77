import type { AppCatalog, OAuthClientSettings } from '../../ports/app-catalog.js';
import type { ConnectionRecord, Repositories } from '../../ports/repositories.js';
import { type DomainError, invalidInput } from '../domain/errors.js';
import { err, ok, type Result } from '../domain/result.js';

/** Where the provider sends the user back; the web console finishes the connection there. */
export const oauthRedirectUri = (webAppUrl: string, appKey: string) =>
  `${webAppUrl}/app/${appKey}/connections/callback`;

/** Prefixes field errors of `formattedData` with its name, as the request body nests them. */
export const formattedDataErrors = (fields: Readonly<Record<string, readonly string[]>>) =>
  invalidInput(Object.fromEntries(Object.entries(fields).map(([key, messages]) => [`formattedData.${key}`, messages])));

/**
 * The OAuth client a connection authorizes with: the administrator's client it names, or the
 * client id and secret the user entered as its credentials.
 */
export const oauthClientOf = async (
  repos: Repositories,
  apps: AppCatalog,
  connection: Pick<ConnectionRecord, 'appKey' | 'oauthClientId' | 'credentials'>,
): Promise<Result<OAuthClientSettings, DomainError>> => {
  if (connection.oauthClientId) {
    const client = await repos.oauthClients.findById(connection.oauthClientId);
    if (!client?.active || client.appKey !== connection.appKey) {
      return err(invalidInput({ appAuthClientId: ['is not an active OAuth client of this app.'] }));
    }
    const parsed = apps.parseClientSettings(connection.appKey, client.settings);
    return parsed.ok ? ok(parsed.value) : err(invalidInput({ appAuthClientId: ['has incomplete settings.'] }));
  }
  const { code: _code, state: _state, ...own } = connection.credentials;
  const parsed = apps.parseClientSettings(connection.appKey, own);
  return parsed.ok ? ok(parsed.value) : err(formattedDataErrors(parsed.fields));
};
