import type { Repositories } from '../../../ports/repositories.js';
import type { SamlAssertion, SamlRequestLog } from '../../../ports/saml.js';
import { type DomainError, unauthenticated } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import {
  mappedRoleId,
  SAML_CLOCK_SKEW_MS,
  SAML_REQUEST_TTL_MS,
  type SamlAuthProvider,
  samlNewUserProfile,
} from '../../domain/saml.js';
import { issueAccessToken, type SignedIn } from '../auth/issue-access-token.js';
import { checkRateLimits } from '../auth/rate-limit.js';
import type { CoreDeps } from '../deps.js';

type Deps = Pick<
  CoreDeps,
  'repos' | 'uow' | 'clock' | 'ids' | 'secrets' | 'settings' | 'saml' | 'logger' | 'rateLimiter'
>;

/**
 * Single sign-on with an identity provider (API.md §9). The gateway checks the XML; this decides
 * who the user is, what role they hold and which session token they get. Every refusal is the same
 * `auth.unauthenticated` to the caller; the reason goes to the log only.
 */
export const makeSamlSignIn = (deps: Deps) => {
  const { repos, uow, clock, ids, saml, logger } = deps;

  const refuse = (issuer: string, reason: string): Result<never, DomainError> => {
    logger.warn({ issuer, reason }, 'SAML sign-in refused');
    return err(unauthenticated());
  };

  /**
   * Every call of these anonymous endpoints counts against its address: starting a sign-in stores
   * a request, and the IdP's answers cost a signature check.
   */
  const limited = (clientAddress: string) =>
    checkRateLimits(deps.rateLimiter, [
      [`saml:address:${clientAddress}`, deps.settings.rateLimits.samlSignInPerAddress],
    ]);

  const activeProvider = async (issuer: string) => {
    const provider = await repos.samlProviders.findByIssuer(issuer);
    return provider?.active ? provider : null;
  };

  const requestLog = (providerId: string): SamlRequestLog => ({
    save: async (requestId) => {
      const now = clock.now();
      await repos.samlMessages.saveRequest({
        requestId,
        providerId,
        expiresAt: new Date(now.getTime() + SAML_REQUEST_TTL_MS),
        now,
      });
    },
    issuedAt: (requestId) => repos.samlMessages.findRequest(providerId, requestId, clock.now()),
    remove: (requestId) => repos.samlMessages.deleteRequest(providerId, requestId),
  });

  /** The user the assertion names at this provider, made on their first sign-in; their role follows the IdP's. */
  const signedInUser = async (
    tx: Repositories,
    provider: SamlAuthProvider,
    assertion: SamlAssertion,
    roleId: string,
  ): Promise<Result<string, DomainError>> => {
    const now = clock.now();
    const identity = await tx.samlIdentities.find(provider.id, assertion.nameId);
    const user = identity ? await tx.users.findById(identity.userId) : null;
    if (user) {
      if (user.status !== 'active') return refuse(provider.issuer, 'the account is not active');
      if (user.roleId !== roleId) {
        const demotion = user.role.isAdmin && !(await tx.roles.findById(roleId))?.isAdmin;
        // The IdP may not lock the instance out of administration.
        if (!demotion || (await tx.users.countActiveAdmins()) > 1)
          await tx.users.updateProfile(user.id, { roleId }, now);
      }
      return ok(user.id);
    }
    // The account was deleted: this sign-in makes a new one.
    if (identity) await tx.samlIdentities.delete(identity.id);

    const profile = samlNewUserProfile(provider, assertion.nameId, assertion.attributes);
    if (!profile) return refuse(provider.issuer, 'the assertion carries no e-mail address');
    // Taking over an existing account by its address would let an IdP speak for users it does not own.
    if (await tx.users.findCredentialsByEmail(profile.email)) {
      return refuse(
        provider.issuer,
        'the e-mail address belongs to an account that did not sign in with this provider',
      );
    }
    const userId = ids.next();
    await tx.users.insert({ id: userId, ...profile, passwordHash: null, roleId, status: 'active', now });
    await tx.samlIdentities.insert({
      id: ids.next(),
      samlAuthProviderId: provider.id,
      remoteId: assertion.nameId,
      userId,
      now,
    });
    return ok(userId);
  };

  return {
    /** Where to send the browser to sign in with the provider: its entry point, with a new AuthnRequest. */
    async startSamlSignIn(issuer: string, clientAddress: string): Promise<Result<{ redirectTo: string }, DomainError>> {
      const tooMany = await limited(clientAddress);
      if (tooMany) return err(tooMany);
      const provider = await activeProvider(issuer);
      if (!provider) return refuse(issuer, 'no active provider has this issuer');
      return ok({ redirectTo: await saml.authorizeUrl(provider, requestLog(provider.id)) });
    },

    /**
     * Takes the IdP's answer: a valid, unused assertion answering one of our requests signs its
     * user in with a new session token. Nothing is stored when it is refused.
     */
    async finishSamlSignIn(
      issuer: string,
      samlResponse: string,
      clientAddress: string,
    ): Promise<Result<SignedIn, DomainError>> {
      const tooMany = await limited(clientAddress);
      if (tooMany) return err(tooMany);
      const provider = await activeProvider(issuer);
      if (!provider) return refuse(issuer, 'no active provider has this issuer');
      const verified = await saml.verifyResponse(provider, samlResponse, requestLog(provider.id));
      if (!verified.ok) return refuse(issuer, verified.error);
      const assertion = verified.value;

      const mappings = await repos.samlProviders.listRoleMappings(provider.id);
      const roleId = mappedRoleId(
        mappings,
        assertion.attributes[provider.roleAttributeName] ?? [],
        provider.defaultRoleId,
      );
      const now = clock.now().getTime();
      // Kept while the assertion, or a request it could answer, could still be accepted.
      const usedUntil = new Date(
        Math.max((assertion.notOnOrAfter?.getTime() ?? 0) + SAML_CLOCK_SKEW_MS, now + SAML_REQUEST_TTL_MS),
      );

      const result = await uow.run(async (tx) => {
        if (!(await tx.samlMessages.consumeAssertion(provider.id, assertion.id, usedUntil))) {
          return refuse(issuer, 'the assertion was used before');
        }
        const userId = await signedInUser(tx, provider, assertion, roleId);
        if (!userId.ok) return userId;
        const issued = await issueAccessToken(deps, tx, userId.value);
        await tx.samlSessions.insert({
          accessTokenId: issued.id,
          providerId: provider.id,
          nameId: assertion.nameId,
          sessionIndex: assertion.sessionIndex,
          expiresAt: issued.expiresAt,
        });
        return ok({ token: issued.token, expiresAt: issued.expiresAt });
      });
      if (!result.ok && result.error.code !== 'auth.unauthenticated') {
        // e.g. two first sign-ins of one user at once: the second meets the first's identity.
        return refuse(issuer, `the sign-in could not be stored (${result.error.code})`);
      }
      return result;
    },

    /**
     * The IdP ends a user's session: the tokens issued for it are revoked. Answers where to send the
     * browser back (the IdP, with our LogoutResponse).
     */
    async samlLogout(
      issuer: string,
      samlRequest: string,
      relayState: string | null,
      clientAddress: string,
    ): Promise<Result<{ redirectTo: string }, DomainError>> {
      const tooMany = await limited(clientAddress);
      if (tooMany) return err(tooMany);
      // A provider switched off may still end the sessions it started.
      const provider = await repos.samlProviders.findByIssuer(issuer);
      if (!provider) return refuse(issuer, 'no provider has this issuer');
      const verified = await saml.verifyLogoutRequest(provider, samlRequest);
      if (!verified.ok) return refuse(issuer, verified.error);
      const { nameId, sessionIndex } = verified.value;
      const revoked = await repos.samlSessions.revokeTokens(provider.id, nameId, sessionIndex, clock.now());
      logger.info({ issuer, revoked }, 'SAML logout');
      return ok({ redirectTo: await saml.logoutResponseUrl(provider, verified.value, relayState) });
    },
  };
};
