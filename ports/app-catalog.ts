import type { AppDescription, ArgumentDescription, Credentials, DynamicOption } from '../core/domain/app.js';
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

/** What a change of a connection's credentials stores: new credentials, and whether they still work. */
export interface CredentialChange {
  readonly credentials?: Credentials;
  /** False when the provider refused them for good (a revoked refresh token): the user must reconnect. */
  readonly verified?: boolean;
}

/**
 * Changes a stored connection's credentials: `change` receives them as stored now (another process
 * may have changed them since they were read) and returns what to store, or null for nothing. One
 * change at a time per connection across every process, so that two users of a connection never
 * spend one refresh token twice. Resolves to the credentials stored afterwards.
 */
export type ChangeCredentials = (
  change: (stored: Credentials) => Promise<CredentialChange | null>,
) => Promise<Credentials>;

/** A connection as a hook uses it: its credentials, and the OAuth client it authorizes with. */
export interface ConnectionUse {
  readonly credentials: Credentials;
  readonly oauth: { readonly client: OAuthClientSettings } | null;
  /**
   * How tokens a hook renews and values it sets reach the stored connection. Absent for credentials
   * that are not stored (a check before they are, a test): changes then stay with the hook's session.
   */
  readonly change?: ChangeCredentials;
}

/** The OAuth side of a credential check: the client, where the provider sent the user back, the PKCE verifier. */
export interface OAuthCheck {
  readonly client: OAuthClientSettings;
  readonly redirectUri: string;
  /** The PKCE code verifier kept with the authorization the code answers; null when there is none. */
  readonly codeVerifier?: string | null;
}

/** What of the step's owner a draft hook may read (Automatisch's `$.forms`), asked for when needed, never loaded in advance. */
export interface OwnerData {
  /** The owner's flows, by name (the flows app calls them, or watches them fail). */
  flows(): Promise<ReadonlyArray<{ readonly id: string; readonly name: string }>>;
  /** The owner's forms, newest first. */
  forms(): Promise<ReadonlyArray<{ readonly id: string; readonly name: string }>>;
  /** The owner's agents, by name (the agents app runs them). */
  agents(): Promise<ReadonlyArray<{ readonly id: string; readonly name: string }>>;
}

/** A step being edited asks its app for options or extra arguments. */
export interface DraftRequest {
  readonly appKey: string;
  /** The `dynamicData` or `dynamicFields` key. */
  readonly key: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly connection: ConnectionUse | null;
  /** The flow's owner; none outside a flow (an app's own tests). */
  readonly owner?: OwnerData;
}

export type DraftOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly unknownKey: true }
  | { readonly ok: false; readonly unknownKey: false; readonly reason: string };

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
  /**
   * Asks the remote service whether the credentials work; for OAuth2 with a `code`, exchanges it.
   * `change` is given for credentials already stored: tokens renewed during the check go through it.
   */
  verifyCredentials(
    appKey: string,
    credentials: Credentials,
    oauth: OAuthCheck | null,
    change?: ChangeCredentials,
  ): Promise<CredentialCheck>;
  /**
   * Where to send the user to grant access (OAuth2 apps); null for other apps. Apps using PKCE send
   * the challenge of `codeVerifier`, which the caller keeps for the exchange.
   */
  authorizationUrl(
    appKey: string,
    request: {
      readonly client: OAuthClientSettings;
      readonly redirectUri: string;
      readonly state: string;
      readonly codeVerifier?: string;
    },
  ): string | null;
  /**
   * Checks a step's parameters against its trigger's or action's arguments: null when they fit,
   * otherwise the messages by argument. The app and key must exist.
   */
  checkStepParameters(
    appKey: string,
    kind: 'trigger' | 'action',
    key: string,
    parameters: Readonly<Record<string, unknown>>,
  ): FieldErrors | null;
  /** The options of a dynamic dropdown; a failure of the app is a reason, never a throw. */
  loadDynamicData(request: DraftRequest): Promise<DraftOutcome<readonly DynamicOption[]>>;
  /** The extra arguments a step's dynamic fields add for the parameters given so far. */
  loadDynamicFields(request: DraftRequest): Promise<DraftOutcome<readonly ArgumentDescription[]>>;
}
