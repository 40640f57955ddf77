import type { Repositories } from '../../../ports/repositories.js';
import type { SamlGateway } from '../../../ports/saml.js';
import { type DomainError, type FieldErrors, invalidInput } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { isSamlSignatureAlgorithm, SAML_SIGNATURE_ALGORITHMS, type SamlAuthProviderFields } from '../../domain/saml.js';

/**
 * A provider as a caller gives it, REST or GraphQL: any field may be missing (or null, as GraphQL
 * sends it), and nothing is trusted yet.
 */
export type SamlAuthProviderInput = {
  readonly [K in keyof SamlAuthProviderFields]?:
    | (SamlAuthProviderFields[K] extends boolean ? boolean : string)
    | null
    | undefined;
};

type TextField = Exclude<keyof SamlAuthProviderFields, 'active' | 'signatureAlgorithm'>;

const MAX_LENGTH: Readonly<Record<TextField, number>> = {
  name: 255,
  certificate: 20_000,
  issuer: 1024,
  entryPoint: 2048,
  firstnameAttributeName: 255,
  surnameAttributeName: 255,
  emailAttributeName: 255,
  roleAttributeName: 255,
  defaultRoleId: 64,
};
const TEXT_FIELDS = Object.keys(MAX_LENGTH) as TextField[];

const isHttpUrl = (text: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

/**
 * Checks a provider's fields and gives them in their stored form: the given ones, over `current`
 * when a provider is being changed. A new provider needs every field but `active` (off by default).
 */
export const checkProviderInput = async (
  saml: Pick<SamlGateway, 'readCertificate'>,
  repos: Pick<Repositories, 'roles'>,
  input: SamlAuthProviderInput,
  current: SamlAuthProviderFields | null,
): Promise<Result<{ fields: SamlAuthProviderFields; changes: Partial<SamlAuthProviderFields> }, DomainError>> => {
  const errors: Record<string, string[]> = {};
  const changes: { -readonly [K in keyof SamlAuthProviderFields]?: SamlAuthProviderFields[K] } = {};

  for (const field of TEXT_FIELDS) {
    const raw = input[field];
    if (raw === undefined || raw === null) {
      if (!current) errors[field] = ['is required.'];
      continue;
    }
    const value = raw.trim();
    if (value === '') errors[field] = ['is required.'];
    else if (value.length > MAX_LENGTH[field]) errors[field] = [`must be at most ${MAX_LENGTH[field]} characters.`];
    else changes[field] = value;
  }
  if (changes.entryPoint !== undefined && !isHttpUrl(changes.entryPoint)) {
    errors.entryPoint = ['must be an http(s) URL.'];
  }
  if (changes.certificate !== undefined) {
    const pem = saml.readCertificate(changes.certificate);
    if (pem) changes.certificate = pem;
    else errors.certificate = ['must be an X.509 certificate (PEM or base64).'];
  }
  if (changes.defaultRoleId !== undefined && !errors.defaultRoleId) {
    if (!(await repos.roles.findById(changes.defaultRoleId))) errors.defaultRoleId = ['does not exist.'];
  }

  const algorithm = input.signatureAlgorithm?.trim();
  if (algorithm === undefined) {
    if (!current) errors.signatureAlgorithm = ['is required.'];
  } else if (algorithm === '') {
    errors.signatureAlgorithm = ['is required.'];
  } else if (isSamlSignatureAlgorithm(algorithm)) {
    changes.signatureAlgorithm = algorithm;
  } else {
    errors.signatureAlgorithm = [`must be one of ${SAML_SIGNATURE_ALGORITHMS.join(', ')}.`];
  }
  if (input.active !== undefined && input.active !== null) changes.active = input.active;

  if (Object.keys(errors).length > 0) return err(invalidInput(errors as FieldErrors));
  const fields = { ...(current ?? { active: false }), ...changes } as SamlAuthProviderFields;
  return ok({ fields, changes });
};
