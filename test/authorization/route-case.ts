import type { ActorFactory, ActorKind, TestActor } from './actors.js';

/** What rows may use: the actor factory and the shared resources made once per instance. */
export type MatrixFixtures = ActorFactory & {
  readonly oauthClientId: string;
  /** A template of a flow of the installing administrator. */
  readonly templateId: string;
  /** A SAML provider of the installing administrator's making. */
  readonly samlAuthProviderId: string;
  /** A complete new provider, with an issuer of its own. */
  readonly samlProviderBody: () => Record<string, unknown>;
};

/** The expected status for each kind of caller. */
export type Expected = Readonly<Record<ActorKind, number>>;

/** Callers whose role holds a permission on another user's resource, with or without `isCreator`. */
export interface ForeignCase {
  readonly path: (fx: MatrixFixtures) => string | Promise<string>;
  /** A User-role caller: every permission carries `isCreator`. */
  readonly status: number;
  /** A caller who reads every flow but manages only their own (and reads only their own connections). */
  readonly readAllManageOwn?: number;
  /** A caller who manages every flow and connection: no condition. */
  readonly manageAll?: number;
}

export interface RouteCase {
  readonly method: string;
  readonly route: string;
  /** Where `route` is served; the REST mount `/api/v1` unless given (`''`: `route` is the whole path). */
  readonly mount?: string;
  /**
   * Enterprise route: without a licence, every caller who passes authentication (anyone, on a
   * public route) gets 403 EnterpriseLicenseRequiredError.
   */
  readonly ee?: boolean;
  /** The route consumes the caller's account or session: each caller is made afresh for it. */
  readonly freshActor?: boolean;
  readonly path: (fx: MatrixFixtures, actor: TestActor) => string | Promise<string>;
  /** Called after `path` (or the foreign path), so it may use what that made. */
  readonly body?: (fx: MatrixFixtures, actor: TestActor) => unknown;
  readonly expect: Expected;
  /** What callers get when the path names another user's resource. */
  readonly foreign?: ForeignCase;
}

export const everyone = (status: number): Expected => ({
  anonymous: status,
  user: status,
  custom: status,
  admin: status,
  apiToken: status,
});
export const signedIn = (status: number): Expected => ({
  anonymous: 401,
  user: status,
  custom: status,
  admin: status,
  apiToken: status,
});
export const adminOnly = (status: number): Expected => ({
  anonymous: 401,
  user: 403,
  custom: 403,
  admin: status,
  apiToken: status,
});
/** The User role holds the permission (own rows); the custom role holds none. */
export const permitted = (status: number, custom = 403): Expected => ({
  anonymous: 401,
  user: status,
  custom,
  admin: status,
  apiToken: status,
});

export const MISSING = '00000000-0000-4000-8000-000000000000';
let serial = 0;
export const unique = () => `${Date.now()}-${++serial}`;
