import { type CacheProvider, type Profile, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import { errorMessage } from '../../core/domain/errors.js';
import { err, ok, type Result } from '../../core/domain/result.js';
import { SAML_CLOCK_SKEW_MS, SAML_REQUEST_TTL_MS, type SamlAttributes, samlPaths } from '../../core/domain/saml.js';
import type { SamlGateway, SamlPeer, SamlRequestLog } from '../../ports/saml.js';
import { readCertificate } from './certificate.js';

/** node-saml's request cache, kept by the core (in the database, so that every process shares it). */
const cacheOf = (requests: SamlRequestLog): CacheProvider => ({
  async saveAsync(key, value) {
    await requests.save(key);
    return { value, createdAt: Date.now() };
  },
  async getAsync(key) {
    return (await requests.issuedAt(key))?.toISOString() ?? null;
  },
  async removeAsync(key) {
    if (key) await requests.remove(key);
    return key;
  },
});

const SIGNATURE_METHOD = /<(?:[\w.-]+:)?SignatureMethod\b[^>]*?\bAlgorithm\s*=\s*["']([^"']*)["']/g;

/**
 * The XML of a posted message, refused before any parser sees it when it declares a DOCTYPE or an
 * entity (no SAML message needs one; they are how XML parsers are attacked), or when a signature
 * in it uses another algorithm than the provider's (no downgrade to SHA-1).
 */
const decode = (peer: SamlPeer, message: unknown): Result<string, string> => {
  if (typeof message !== 'string' || message.trim() === '') return err('the message is missing');
  const xml = Buffer.from(message, 'base64').toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return err('the message declares a DOCTYPE or an entity');
  for (const [, algorithm = ''] of xml.matchAll(SIGNATURE_METHOD)) {
    if (!algorithm.toLowerCase().endsWith(`-${peer.signatureAlgorithm}`)) {
      return err(`a signature uses ${algorithm.slice(0, 100)}, not the provider's ${peer.signatureAlgorithm}`);
    }
  }
  return ok(xml);
};

const reasonOf = (error: unknown) => errorMessage(error).slice(0, 300);

const textOf = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null;

/** Attribute values as lists of text; structured values (rare, and unused here) are left out. */
const attributesOf = (profile: Profile): SamlAttributes => {
  const raw = (profile.attributes ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(raw).map(([name, value]) => [
      name,
      (Array.isArray(value) ? value : [value]).map(textOf).filter((v): v is string => v !== null),
    ]),
  );
};

interface AssertionFacts {
  readonly id: string | null;
  readonly notOnOrAfter: Date | null;
}

/** The assertion's ID and end of validity, from the signed assertion node-saml returns. */
const factsOf = (profile: Profile): AssertionFacts => {
  const assertion = (profile.getAssertion?.() as { Assertion?: Record<string, any> } | undefined)?.Assertion;
  const id = textOf(assertion?.$?.ID);
  const end = textOf(assertion?.Conditions?.[0]?.$?.NotOnOrAfter);
  const notOnOrAfter = end ? new Date(end) : null;
  return { id, notOnOrAfter: notOnOrAfter && !Number.isNaN(notOnOrAfter.getTime()) ? notOnOrAfter : null };
};

/**
 * The SAML protocol through @node-saml/node-saml. Responses must carry at least one signature by
 * the provider's certificate with the provider's algorithm (of the response or of its one
 * assertion), name this instance's entity id (the provider's `issuer`) as audience, be within
 * their time window give or take a minute, and answer an AuthnRequest we sent.
 */
export const createNodeSamlGateway = ({ publicUrl }: { readonly publicUrl: string }): SamlGateway => {
  const saml = (peer: SamlPeer, requests?: SamlRequestLog) =>
    new SAML({
      issuer: peer.issuer,
      audience: peer.issuer,
      callbackUrl: `${publicUrl}${samlPaths(peer.issuer).callback}`,
      entryPoint: peer.entryPoint,
      logoutUrl: peer.entryPoint,
      idpCert: peer.certificate,
      signatureAlgorithm: peer.signatureAlgorithm,
      // Neither alone is demanded, and node-saml then demands the other when one is missing:
      // an answer is taken only with a valid signature of the response or of its assertion.
      wantAuthnResponseSigned: false,
      wantAssertionsSigned: false,
      acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: SAML_REQUEST_TTL_MS,
      ...(requests && { cacheProvider: cacheOf(requests) }),
      identifierFormat: null,
      disableRequestedAuthnContext: true,
    });

  return {
    readCertificate,

    authorizeUrl: (peer, requests) => saml(peer, requests).getAuthorizeUrlAsync('', undefined, {}),

    async verifyResponse(peer, samlResponse, requests) {
      const xml = decode(peer, samlResponse);
      if (!xml.ok) return xml;
      try {
        const { profile, loggedOut } = await saml(peer, requests).validatePostResponseAsync({
          SAMLResponse: samlResponse,
        });
        if (!profile || loggedOut) return err('the response carries no assertion');
        const nameId = textOf(profile.nameID)?.trim();
        if (!nameId) return err('the assertion names no subject');
        const { id, notOnOrAfter } = factsOf(profile);
        if (!id) return err('the assertion has no ID');
        return ok({
          id,
          nameId,
          sessionIndex: textOf(profile.sessionIndex),
          notOnOrAfter,
          attributes: attributesOf(profile),
        });
      } catch (error) {
        return err(reasonOf(error));
      }
    },

    async verifyLogoutRequest(peer, samlRequest) {
      const xml = decode(peer, samlRequest);
      if (!xml.ok) return xml;
      try {
        const { profile } = await saml(peer).validatePostRequestAsync({ SAMLRequest: samlRequest });
        const id = textOf(profile.ID);
        const nameId = textOf(profile.nameID)?.trim();
        if (!id || !nameId) return err('the logout request names no request or subject');
        return ok({ id, nameId, sessionIndex: textOf(profile.sessionIndex) });
      } catch (error) {
        return err(reasonOf(error));
      }
    },

    logoutResponseUrl: (peer, request, relayState) =>
      saml(peer).getLogoutResponseUrlAsync(
        { ID: request.id, issuer: peer.issuer, nameID: request.nameId, nameIDFormat: '' },
        relayState ?? '',
        {},
        true,
      ),
  };
};
