import { type GraphQLInputObjectType, type GraphQLSchema, isInputObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { SAML_SDL } from './saml.sdl.js';
import { buildGraphqlSchema, SCHEMA_PARTS } from './schema.js';

/** `name: Type` of each field of an input type, as the contract lists them. */
const inputFields = (schema: GraphQLSchema, name: string) => {
  const type = schema.getType(name);
  if (!isInputObjectType(type)) throw new Error(`${name} is not an input type`);
  return Object.values((type as GraphQLInputObjectType).getFields()).map((f) => `${f.name}: ${String(f.type)}`);
};

const signature = (schema: GraphQLSchema, root: 'Query' | 'Mutation') =>
  Object.values((root === 'Query' ? schema.getQueryType() : schema.getMutationType())?.getFields() ?? {}).map(
    (f) => `${f.name}(${f.args.map((a) => `${a.name}: ${String(a.type)}`).join(', ')}): ${String(f.type)}`,
  );

describe('the served schema (API.md §7)', () => {
  const schema = buildGraphqlSchema();

  it('has the four mutations, each with an optional input, and a minimal query', () => {
    expect(signature(schema, 'Mutation')).toEqual([
      'updateStep(input: UpdateStepInput): Step',
      'updateUser(input: UpdateUserInput): User',
      'verifyConnection(input: VerifyConnectionInput): Connection',
      'upsertSamlAuthProvider(input: UpsertSamlAuthProviderInput): SamlAuthProvider',
    ]);
    expect(signature(schema, 'Query')).toEqual(['currentUser(): User']);
  });

  it('takes the inputs the contract lists', () => {
    expect(inputFields(schema, 'UpdateStepInput')).toEqual([
      'id: String!',
      'appKey: String',
      'key: String',
      'name: String',
      'connectionId: String',
      'parameters: JSON',
    ]);
    expect(inputFields(schema, 'UpdateUserInput')).toEqual(['id: String!', 'fullName: String', 'email: String']);
    expect(inputFields(schema, 'VerifyConnectionInput')).toEqual(['id: String!']);
  });

  it('serves the SAML part, without the old names', () => {
    expect(SCHEMA_PARTS).toContain(SAML_SDL);
    expect(schema.getType('UpsertSamlAuthProviderInput')).toBeDefined();
    expect(schema.getType('CreateSamlAuthProviderInput')).toBeUndefined();
  });

  it('has no field for a secret', () => {
    const names = Object.values(schema.getTypeMap())
      .filter((t) => !t.name.startsWith('__') && 'getFields' in t)
      .flatMap((t) => Object.keys((t as GraphQLInputObjectType).getFields()));
    expect(names.filter((n) => /password|hash|secret|credential|token/i.test(n))).toEqual([]);
  });
});

describe('the SAML part', () => {
  const schema = buildGraphqlSchema();

  it('adds upsertSamlAuthProvider with an optional input', () => {
    expect(signature(schema, 'Mutation')).toContain(
      'upsertSamlAuthProvider(input: UpsertSamlAuthProviderInput): SamlAuthProvider',
    );
    expect(signature(schema, 'Mutation')).not.toContainEqual(expect.stringContaining('createSamlAuthProvider'));
    expect(schema.getType('CreateSamlAuthProviderInput')).toBeUndefined();
  });

  it('takes the fields of API.md §7, the first three required', () => {
    expect(inputFields(schema, 'UpsertSamlAuthProviderInput')).toEqual([
      'name: String!',
      'certificate: String!',
      'signatureAlgorithm: String!',
      'issuer: String',
      'entryPoint: String',
      'firstnameAttributeName: String',
      'surnameAttributeName: String',
      'emailAttributeName: String',
      'roleAttributeName: String',
      'defaultRoleId: String',
      'active: Boolean',
    ]);
  });
});
