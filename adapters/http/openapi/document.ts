import type { JsonSchema } from '@valibot/to-json-schema';
import { pageQuerySchema } from '../pagination.js';
import { answerJsonSchema, bodyJsonSchema, queryJsonSchema, resourceJsonSchemas } from './json-schema.js';
import { guardOf, type TaggedOperation } from './operation.js';

export const API_BASE = '/api/v1';
export const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';
export const API_REFERENCE_PATH = '/api/docs';

type Json = Record<string, unknown>;

/** `/users/:userId` → `/users/{userId}`, under the API mount unless the route is served at the root. */
export const openApiPath = (operation: TaggedOperation) =>
  `${operation.root ? '' : API_BASE}${operation.path.replace(/:(\w+)/g, '{$1}')}`;

const pathParameters = (path: string) => [...path.matchAll(/:(\w+)/g)].map((match) => match[1] as string);

/** `PATCH /users/:userId/password` → `patchUsersUserIdPassword`. */
const operationId = ({ method, path }: TaggedOperation) =>
  [method.toLowerCase(), ...path.split(/[/:-]/).filter(Boolean)]
    .map((word, index) => (index === 0 ? word : word[0]?.toUpperCase() + word.slice(1)))
    .join('');

const queryParameters = (schema: JsonSchema) => {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: property,
  }));
};

const ref = (kind: 'schemas' | 'responses' | 'parameters', name: string) => ({ $ref: `#/components/${kind}/${name}` });

const errorResponses = (operation: TaggedOperation): Json => {
  const statuses: string[] = [];
  if (operation.body && !operation.form) statuses.push('400');
  if (operation.access !== 'public') statuses.push('401');
  if (operation.access === 'admin' || operation.enterprise || operation.permission) statuses.push('403');
  if (pathParameters(operation.path).length > 0) statuses.push('404');
  if (operation.body || operation.query || operation.paged) statuses.push('422');
  return Object.fromEntries(statuses.map((status) => [status, ref('responses', `Error${status}`)]));
};

const successResponse = (operation: TaggedOperation): Json => {
  if (operation.status === 204) return { description: operation.returns };
  if (operation.root) return { description: operation.returns };
  const envelope = ref('schemas', 'Envelope');
  const schema = operation.answer
    ? { allOf: [envelope, { type: 'object', properties: { data: answerJsonSchema(operation.answer) } }] }
    : envelope;
  return {
    description: `${operation.returns} in the success envelope`,
    content: { 'application/json': { schema } },
  };
};

const requestBody = (operation: TaggedOperation) =>
  operation.body && {
    required: true,
    content: {
      [operation.form ? 'application/x-www-form-urlencoded' : 'application/json']: {
        schema: bodyJsonSchema(operation.body),
      },
    },
  };

/** `idSuffix` tells apart a root page that has the path of an API route (`/forms/:formId`). */
const toOperation = (operation: TaggedOperation, idSuffix: string): Json => ({
  operationId: `${operationId(operation)}${idSuffix}`,
  tags: [operation.tag],
  summary: operation.summary,
  'x-guard': guardOf(operation),
  security: operation.access === 'public' ? [] : [{ bearerToken: [] }, { apiToken: [] }],
  parameters: [
    ...pathParameters(operation.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...(operation.query ? queryParameters(queryJsonSchema(operation.query)) : []),
    ...(operation.paged ? [ref('parameters', 'page'), ref('parameters', 'perPage')] : []),
  ],
  ...(operation.body && { requestBody: requestBody(operation) }),
  responses: { [String(operation.status)]: successResponse(operation), ...errorResponses(operation) },
});

const ERROR_STATUSES: Readonly<Record<string, string>> = {
  '400': 'The body is not JSON',
  '401': 'No valid credentials',
  '403': 'Forbidden: role, enterprise licence (EnterpriseLicenseRequiredError) or state',
  '404': 'Nothing by that id the caller may see',
  '422': 'Invalid input: `errors` names each field',
};

const components = () => {
  return {
    securitySchemes: {
      bearerToken: { type: 'http', scheme: 'bearer', description: 'An access token from POST /api/v1/access-tokens' },
      apiToken: { type: 'apiKey', in: 'header', name: 'X-Api-Token', description: 'An API token (enterprise)' },
    },
    parameters: Object.fromEntries(
      queryParameters(queryJsonSchema(pageQuerySchema)).map((parameter) => [parameter.name, parameter]),
    ) as Record<string, Json>,
    schemas: {
      ...resourceJsonSchemas(),
      Meta: {
        type: 'object',
        required: ['type', 'count', 'isArray', 'currentPage', 'totalPages'],
        properties: {
          type: { type: 'string', description: 'The resource type, e.g. Flow' },
          count: { type: 'integer' },
          isArray: { type: 'boolean' },
          currentPage: { type: ['integer', 'null'] },
          totalPages: { type: ['integer', 'null'] },
        },
      },
      Envelope: {
        type: 'object',
        required: ['data', 'meta'],
        properties: { data: { description: 'One resource or an array of them' }, meta: ref('schemas', 'Meta') },
      },
      Error: {
        type: 'object',
        required: ['errors', 'meta'],
        properties: {
          errors: {
            type: 'object',
            description: 'Messages by field, or under `general`',
            additionalProperties: { type: 'array', items: { type: 'string' } },
          },
          meta: {
            type: 'object',
            required: ['type'],
            properties: { type: { type: 'string', description: 'The error type, e.g. ValidationError' } },
          },
        },
      },
    },
    responses: Object.fromEntries(
      Object.entries(ERROR_STATUSES).map(([status, description]) => [
        `Error${status}`,
        { description, content: { 'application/json': { schema: ref('schemas', 'Error') } } },
      ]),
    ),
  };
};

/** The OpenAPI 3.1 document of every operation, built from the schemas the handlers validate with. */
export const buildOpenApiDocument = (operations: readonly TaggedOperation[], version: string) => {
  const paths: Record<string, Json> = {};
  const apiRoutes = new Set(operations.filter((o) => !o.root).map((o) => `${o.method} ${o.path}`));
  for (const operation of operations) {
    const path = openApiPath(operation);
    const suffix = operation.root && apiRoutes.has(`${operation.method} ${operation.path}`) ? 'Page' : '';
    paths[path] = { ...paths[path], [operation.method.toLowerCase()]: toOperation(operation, suffix) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Conveyor',
      version,
      description: 'Every route also answers under /internal/api/v1. Guards are in `x-guard`.',
    },
    servers: [{ url: '/' }],
    tags: [...new Set(operations.map((operation) => operation.tag))].map((name) => ({ name })),
    paths,
    components: components(),
  };
};

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
