import type { SamlAuthProvider, SamlAuthProviderFields, SamlRoleMapping } from '../core/domain/saml.js';

export interface SamlAuthProviderRepository {
  /** By name; only active ones when asked. */
  list(filter: { readonly activeOnly: boolean }): Promise<SamlAuthProvider[]>;
  findById(id: string): Promise<SamlAuthProvider | null>;
  findByIssuer(issuer: string): Promise<SamlAuthProvider | null>;
  insert(provider: SamlAuthProviderFields & { readonly id: string; readonly now: Date }): Promise<SamlAuthProvider>;
  update(id: string, changes: Partial<SamlAuthProviderFields>, now: Date): Promise<void>;
  /** Providers that give this role to users no mapping matches. */
  countByDefaultRole(roleId: string): Promise<number>;
  /** The provider's role mappings, in the order they are tried. */
  listRoleMappings(providerId: string): Promise<SamlRoleMapping[]>;
  /** Replaces every mapping of the provider with these, in this order. */
  replaceRoleMappings(providerId: string, mappings: readonly SamlRoleMapping[], now: Date): Promise<void>;
}

/** Which local user a provider's name id stands for. */
export interface SamlIdentity {
  readonly id: string;
  readonly samlAuthProviderId: string;
  readonly remoteId: string;
  readonly userId: string;
}

export interface SamlIdentityRepository {
  find(providerId: string, remoteId: string): Promise<SamlIdentity | null>;
  insert(identity: SamlIdentity & { readonly now: Date }): Promise<void>;
  delete(id: string): Promise<void>;
}

/**
 * The messages a sign-in exchanges, kept in the database so that every process of an instance sees
 * them: AuthnRequests waiting for their answer, and assertions already used (refused when replayed).
 */
export interface SamlMessageRepository {
  saveRequest(request: {
    readonly requestId: string;
    readonly providerId: string;
    readonly expiresAt: Date;
    readonly now: Date;
  }): Promise<void>;
  /** When the request was made, while it waits for its answer and has not expired at `now`. */
  findRequest(providerId: string, requestId: string, now: Date): Promise<Date | null>;
  deleteRequest(providerId: string, requestId: string): Promise<void>;
  /**
   * Records an assertion as used until `expiresAt`. False when it already was: a replay. Atomic,
   * so that of two concurrent deliveries of one assertion exactly one is taken.
   */
  consumeAssertion(providerId: string, assertionId: string, expiresAt: Date): Promise<boolean>;
  /** Forgets expired requests and used assertions that can no longer be replayed; how many. */
  deleteExpired(now: Date): Promise<number>;
}

/** The SAML session an access token was issued for, so that the IdP can end it. */
export interface SamlSession {
  readonly accessTokenId: string;
  readonly providerId: string;
  readonly nameId: string;
  readonly sessionIndex: string | null;
  readonly expiresAt: Date;
}

export interface SamlSessionRepository {
  insert(session: SamlSession): Promise<void>;
  /**
   * Revokes the live access tokens of the name id's sessions at the provider: those of one session
   * when `sessionIndex` is given, all of them otherwise. Returns how many were revoked.
   */
  revokeTokens(providerId: string, nameId: string, sessionIndex: string | null, now: Date): Promise<number>;
  /** Forgets sessions whose token has expired; how many. */
  deleteExpired(now: Date): Promise<number>;
}
