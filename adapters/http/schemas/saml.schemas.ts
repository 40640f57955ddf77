import * as v from 'valibot';
import { SAML_SIGNATURE_ALGORITHMS } from '../../../core/domain/saml.js';
import { closedObject } from './fields.js';

const text = (max: number) =>
  v.pipe(
    v.string('must be a string.'),
    v.trim(),
    v.nonEmpty('is required.'),
    v.maxLength(max, `must be at most ${max} characters.`),
  );
const uuid = v.pipe(v.string('must be a string.'), v.uuid('must be a UUID.'));
const httpUrl = v.pipe(text(2048), v.url('must be a URL.'), v.regex(/^https?:\/\//i, 'must be an http(s) URL.'));

// The certificate is checked further (it must parse as X.509) by the use case, for GraphQL too.
const PROVIDER_FIELDS = {
  name: text(255),
  certificate: text(20_000),
  signatureAlgorithm: v.picklist(SAML_SIGNATURE_ALGORITHMS, `must be one of ${SAML_SIGNATURE_ALGORITHMS.join(', ')}.`),
  issuer: text(1024),
  entryPoint: httpUrl,
  firstnameAttributeName: text(255),
  surnameAttributeName: text(255),
  emailAttributeName: text(255),
  roleAttributeName: text(255),
  defaultRoleId: uuid,
  active: v.optional(v.boolean('must be a boolean.')),
};

export const samlProviderSchema = closedObject(PROVIDER_FIELDS);

/** PATCH changes only what it names. */
export const samlProviderChangesSchema = closedObject(
  Object.fromEntries(Object.entries(PROVIDER_FIELDS).map(([key, schema]) => [key, v.optional(schema)])) as {
    [K in keyof typeof PROVIDER_FIELDS]: v.OptionalSchema<(typeof PROVIDER_FIELDS)[K], undefined>;
  },
);

/** The whole list of mappings, in the order they are tried. */
export const roleMappingsSchema = v.pipe(
  v.array(closedObject({ remoteRoleName: text(255), roleId: uuid }), 'must be an array.'),
  v.maxLength(100, 'must have at most 100 mappings.'),
);

/** What an IdP posts back: form fields. */
export const samlMessageSchema = v.object({
  SAMLResponse: v.optional(v.string()),
  SAMLRequest: v.optional(v.string()),
  RelayState: v.optional(v.pipe(v.string(), v.maxLength(1024))),
});
