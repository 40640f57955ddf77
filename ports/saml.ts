import type { Result } from '../core/domain/result.js';
import type { SamlAttributes, SamlAuthProvider } from '../core/domain/saml.js';

/** What the gateway needs to know of a provider to talk to it. */
export type SamlPeer = Pick<SamlAuthProvider, 'issuer' | 'entryPoint' | 'certificate' | 'signatureAlgorithm'>;

/** AuthnRequests waiting for their answer; the core keeps them where every process sees them. */
export interface SamlRequestLog {
  save(requestId: string): Promise<void>;
  /** When the request was made, while it waits for its answer; null when unknown, answered or expired. */
  issuedAt(requestId: string): Promise<Date | null>;
  remove(requestId: string): Promise<void>;
}

/** An assertion whose signature, audience, time window and InResponseTo have been checked. */
export interface SamlAssertion {
  /** The assertion's ID, remembered so that it is taken once. */
  readonly id: string;
  readonly nameId: string;
  readonly sessionIndex: string | null;
  /** The end of the assertion's validity, when it states one. */
  readonly notOnOrAfter: Date | null;
  readonly attributes: SamlAttributes;
}

/** An IdP's signed request to end a user's session. */
export interface SamlLogoutRequest {
  readonly id: string;
  readonly nameId: string;
  readonly sessionIndex: string | null;
}

/**
 * The SAML protocol: building requests, checking signed answers. It only talks XML; who the user is
 * and what they may do is the core's business. A refusal carries a reason for the log, never for
 * the caller.
 */
export interface SamlGateway {
  /** The certificate as PEM when the text is one X.509 certificate (PEM or bare base64), else null. */
  readCertificate(text: string): string | null;
  /** The address that starts a sign-in at the IdP, carrying a new AuthnRequest recorded in `requests`. */
  authorizeUrl(peer: SamlPeer, requests: SamlRequestLog): Promise<string>;
  /** Checks a base64 SAMLResponse posted back by the IdP against the outstanding requests. */
  verifyResponse(
    peer: SamlPeer,
    samlResponse: string,
    requests: SamlRequestLog,
  ): Promise<Result<SamlAssertion, string>>;
  /** Checks a base64 LogoutRequest posted by the IdP. */
  verifyLogoutRequest(peer: SamlPeer, samlRequest: string): Promise<Result<SamlLogoutRequest, string>>;
  /** Where to send the browser after an IdP's logout request: the IdP, with our LogoutResponse. */
  logoutResponseUrl(peer: SamlPeer, request: SamlLogoutRequest, relayState: string | null): Promise<string>;
}
