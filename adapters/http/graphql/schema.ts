import { assertValidSchema, buildSchema, type GraphQLSchema } from 'graphql';
import { SAML_SDL } from './saml.sdl.js';
import { SCHEMA_SDL } from './schema.sdl.js';

/** The SDL the endpoint serves. */
export const SCHEMA_PARTS: readonly string[] = [SCHEMA_SDL, SAML_SDL];

/** Builds and checks the schema, so that a mistake in the SDL stops the start, not a request. */
export const buildGraphqlSchema = (parts: readonly string[] = SCHEMA_PARTS): GraphQLSchema => {
  const schema = buildSchema(parts.join('\n'));
  assertValidSchema(schema);
  return schema;
};
