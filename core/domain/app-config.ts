/** An administrator's settings for one app of the catalog. */
export interface AppConfig {
  readonly appKey: string;
  /** No new connections to the app may be made. */
  readonly disabled: boolean;
  /** Users must connect through an administrator's OAuth client, not with credentials of their own. */
  readonly useOnlyPredefinedAuthClients: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** An OAuth client an administrator registered for an app (client id and secret, endpoints). */
export interface OAuthClient {
  readonly id: string;
  readonly appKey: string;
  readonly name: string;
  readonly active: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface OAuthClientWithSettings extends OAuthClient {
  readonly settings: Readonly<Record<string, unknown>>;
}
