import { assertValidSchema, buildSchema, type GraphQLSchema } from 'graphql';
import { SCHEMA_SDL } from './schema.sdl.js';

/** The SDL the endpoint serves. `SAML_SDL` joins it once its use case exists (see `saml.sdl.ts`). */
export const SCHEMA_PARTS: readonly string[] = [SCHEMA_SDL];

/** Builds and checks the schema, so that a mistake in the SDL stops the start, not a request. */
export const buildGraphqlSchema = (parts: readonly string[] = SCHEMA_PARTS): GraphQLSchema => {
  const schema = buildSchema(parts.join('\n'));
  assertValidSchema(schema);
  return schema;
};
