import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

/** A signing key and its self-signed certificate, made for the test run. */
export interface SigningKeys {
  readonly certificate: string;
  readonly privateKey: string;
}

export const generateSigningKeys = async (commonName = 'Test IdP'): Promise<SigningKeys> => {
  const pems = await generate([{ name: 'commonName', value: commonName }], { keySize: 2048, algorithm: 'sha256' });
  return { certificate: pems.cert, privateKey: pems.private };
};

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const newId = () => `_${randomBytes(16).toString('hex')}`;
const MINUTE = 60_000;

export type Algorithm = 'sha1' | 'sha256' | 'sha512' | 'hmac-sha1';
const SIGNATURE_METHODS: Readonly<Record<Algorithm, string>> = {
  sha1: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  sha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  sha512: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
  'hmac-sha1': 'http://www.w3.org/2000/09/xmldsig#hmac-sha1',
};

/**
 * An enveloped signature of the element the xpath selects, placed after its Issuer, exclusive
 * c14n. `hmac-sha1` keys an HMAC with the certificate: the key-confusion attack.
 */
const sign = (xml: string, keys: SigningKeys, elementXpath: string, algorithm: Algorithm = 'sha256'): string => {
  const hmac = algorithm === 'hmac-sha1';
  const signer = new SignedXml({
    privateKey: hmac ? keys.certificate : keys.privateKey,
    publicCert: keys.certificate,
    signatureAlgorithm: SIGNATURE_METHODS[algorithm],
    canonicalizationAlgorithm: EXC_C14N,
  });
  if (hmac) signer.enableHMAC();
  signer.addReference({
    xpath: elementXpath,
    transforms: [ENVELOPED, EXC_C14N],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `${elementXpath}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signer.getSignedXml();
};

const RESPONSE_XPATH = "/*[local-name(.)='Response']";
const ASSERTION_XPATH = "/*[local-name(.)='Response']/*[local-name(.)='Assertion']";

export interface ResponseOptions {
  /** The AuthnRequest answered; null leaves InResponseTo out. */
  readonly inResponseTo: string | null;
  /** Our entity id: the provider's issuer. */
  readonly audience: string;
  readonly nameId: string;
  readonly sessionIndex?: string;
  readonly attributes?: Readonly<Record<string, readonly string[]>>;
  readonly notBefore?: Date;
  readonly notOnOrAfter?: Date;
  /** What carries a signature; both by default. */
  readonly sign?: 'response' | 'assertion' | 'both' | 'none';
  /** Who signs; the IdP itself by default. */
  readonly signer?: SigningKeys;
  /** How; RSA with SHA-256 by default. */
  readonly algorithm?: Algorithm;
  /**
   * Whether the assertion's subject confirmation names the request too (on by default). Some IdPs
   * leave it out; then only the response, which may be unsigned, says what it answers.
   */
  readonly confirmsRequest?: boolean;
  /** Puts a DOCTYPE with an internal entity in front of the document. */
  readonly doctype?: boolean;
}

/**
 * An identity provider the tests run themselves: it holds a key pair and certificate and writes
 * SAML Responses and LogoutRequests as a real IdP would, signed with xml-crypto.
 */
export class TestIdentityProvider {
  readonly entityId = 'https://idp.test/metadata';
  readonly entryPoint = 'https://idp.test/sso';

  private constructor(readonly keys: SigningKeys) {}

  static async start(): Promise<TestIdentityProvider> {
    return new TestIdentityProvider(await generateSigningKeys());
  }

  get certificate(): string {
    return this.keys.certificate;
  }

  /** The Response XML (unencoded), for tests that tamper with it. */
  responseXml(options: ResponseOptions): string {
    const now = Date.now();
    const notBefore = (options.notBefore ?? new Date(now - MINUTE)).toISOString();
    const notOnOrAfter = (options.notOnOrAfter ?? new Date(now + 5 * MINUTE)).toISOString();
    const instant = new Date(now).toISOString();
    const inResponseTo = options.inResponseTo === null ? '' : ` InResponseTo="${escapeXml(options.inResponseTo)}"`;
    const attributes = Object.entries(options.attributes ?? {})
      .map(
        ([name, values]) =>
          `<saml:Attribute Name="${escapeXml(name)}">${values
            .map((value) => `<saml:AttributeValue>${escapeXml(value)}</saml:AttributeValue>`)
            .join('')}</saml:Attribute>`,
      )
      .join('');
    const assertion =
      `<saml:Assertion xmlns:saml="${ASSERTION}" ID="${newId()}" Version="2.0" IssueInstant="${instant}">` +
      `<saml:Issuer>${this.entityId}</saml:Issuer>` +
      '<saml:Subject>' +
      `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified">${escapeXml(options.nameId)}</saml:NameID>` +
      '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">' +
      `<saml:SubjectConfirmationData${options.confirmsRequest === false ? '' : inResponseTo} NotOnOrAfter="${notOnOrAfter}"/>` +
      '</saml:SubjectConfirmation>' +
      '</saml:Subject>' +
      `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}">` +
      `<saml:AudienceRestriction><saml:Audience>${escapeXml(options.audience)}</saml:Audience></saml:AudienceRestriction>` +
      '</saml:Conditions>' +
      `<saml:AuthnStatement AuthnInstant="${instant}" SessionIndex="${escapeXml(options.sessionIndex ?? newId())}">` +
      '<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>' +
      '</saml:AuthnStatement>' +
      (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
      '</saml:Assertion>';
    let xml =
      `<samlp:Response xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${newId()}" Version="2.0" IssueInstant="${instant}"${inResponseTo}>` +
      `<saml:Issuer>${this.entityId}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      assertion +
      '</samlp:Response>';
    const mode = options.sign ?? 'both';
    const signer = options.signer ?? this.keys;
    if (mode === 'assertion' || mode === 'both') xml = sign(xml, signer, ASSERTION_XPATH, options.algorithm);
    if (mode === 'response' || mode === 'both') xml = sign(xml, signer, RESPONSE_XPATH, options.algorithm);
    if (options.doctype) {
      xml = `<?xml version="1.0"?><!DOCTYPE samlp:Response [<!ENTITY who "${escapeXml(options.nameId)}">]>${xml}`;
    }
    return xml;
  }

  /** A SAMLResponse as the browser posts it: base64 of the XML. */
  response(options: ResponseOptions): string {
    return encode(this.responseXml(options));
  }

  /** A signed LogoutRequest ending the session, base64 as posted. */
  logoutRequest(options: { nameId: string; sessionIndex?: string; signer?: SigningKeys }): string {
    const xml =
      `<samlp:LogoutRequest xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}" ID="${newId()}" Version="2.0" IssueInstant="${new Date().toISOString()}">` +
      `<saml:Issuer>${this.entityId}</saml:Issuer>` +
      `<saml:NameID>${escapeXml(options.nameId)}</saml:NameID>` +
      (options.sessionIndex ? `<samlp:SessionIndex>${escapeXml(options.sessionIndex)}</samlp:SessionIndex>` : '') +
      '</samlp:LogoutRequest>';
    return encode(sign(xml, options.signer ?? this.keys, "/*[local-name(.)='LogoutRequest']"));
  }
}

export const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

/** The AuthnRequest carried by a redirect to the IdP (HTTP-Redirect binding: deflated, base64). */
export const authnRequestOf = (location: string): { id: string; xml: string } => {
  const message = new URL(location).searchParams.get('SAMLRequest');
  if (!message) throw new Error(`no SAMLRequest in ${location}`);
  const xml = inflateRawSync(Buffer.from(message, 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error(`no ID in ${xml}`);
  return { id, xml };
};
