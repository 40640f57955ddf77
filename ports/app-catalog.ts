import type { AppDescription, Credentials } from '../core/domain/app.js';
import type { FieldErrors } from '../core/domain/errors.js';

export type CredentialCheck =
  | {
      readonly ok: true;
      readonly screenName: string | null;
      /** Credentials to store from now on (e.g. OAuth tokens obtained for a code). */
      readonly credentials: Credentials;
    }
  | { readonly ok: false; readonly reason: string };

export interface OAuthClientSettings {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly [setting: string]: unknown;
}

export interface AppCatalog {
  list(): readonly AppDescription[];
  find(appKey: string): AppDescription | null;
  /** Checks what a user entered for the app's authentication; the parsed value or field errors. */
  parseAuthFields(
    appKey: string,
    input: Readonly<Record<string, unknown>>,
  ): { ok: true; value: Credentials } | { ok: false; fields: FieldErrors };
  /** Checks OAuth client settings an administrator entered (client id, secret, endpoints). */
  parseClientSettings(
    appKey: string,
    input: Readonly<Record<string, unknown>>,
  ): { ok: true; value: OAuthClientSettings } | { ok: false; fields: FieldErrors };
  /** Asks the remote service whether the credentials work; for OAuth2 with a `code`, exchanges it. */
  verifyCredentials(
    appKey: string,
    credentials: Credentials,
    oauth: { readonly client: OAuthClientSettings; readonly redirectUri: string } | null,
  ): Promise<CredentialCheck>;
  /** Where to send the user to grant access (OAuth2 apps); null for other apps. */
  authorizationUrl(
    appKey: string,
    request: { readonly client: OAuthClientSettings; readonly redirectUri: string; readonly state: string },
  ): string | null;
}
