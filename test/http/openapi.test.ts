import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeHtml } from '../../adapters/http/html.js';
import { bodyJsonSchema, queryJsonSchema } from '../../adapters/http/openapi/json-schema.js';
import { OPERATIONS } from '../../adapters/http/openapi/operations/index.js';
import { DIALECTS } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

type Json = Record<string, any>;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const MISSING = '00000000-0000-4000-8000-000000000000';

/** Every operation of the document, as `[METHOD path, operation]`. */
const operationsOf = (document: Json) =>
  Object.entries(document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation as Json] as const),
  );

const resolve = (document: Json, ref: string) =>
  ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<any>((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);

/** Every `$ref` anywhere in a value. */
const refsIn = (value: unknown): string[] => {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
  );
};

describe('the OpenAPI document', () => {
  let instance: TestInstance;
  let document: Json;
  beforeAll(async () => {
    instance = await startTestInstance('sqlite');
    const res = await instance.request('GET', '/openapi.json', { mount: '/api' });
    expect(res.status).toBe(200);
    document = res.body;
  });
  afterAll(() => instance.close());

  it('lists every route the server answers, with its method and path, and none it does not', () => {
    const served = new Set(
      instance.conveyor.app.routes
        .filter((route) => route.method !== 'ALL' && !route.path.startsWith('/internal/'))
        .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    const documented = new Set<string>(operationsOf(document).map(([name]) => name));
    expect(served.size).toBeGreaterThan(100);
    expect([...served].filter((route) => !documented.has(route)).sort()).toEqual([]);
    expect([...documented].filter((route) => !served.has(route)).sort()).toEqual([]);
    expect(documented).toContain('GET /healthcheck');
    expect(documented).toContain('POST /graphql');
    expect(documented).toContain('POST /webhooks/flows/{flowId}/sync');
    expect(documented).toContain('POST /login/saml/{issuer}/callback');
  });

  it('is a structurally valid OpenAPI 3.1 document', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toEqual(expect.objectContaining({ title: 'Conveyor', version: expect.any(String) }));
    const ids = operationsOf(document).map(([, operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [path, item] of Object.entries(document.paths as Json)) {
      expect(path).toMatch(/^\//);
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      for (const [method, operation] of Object.entries(item as Json)) {
        const name = `${method} ${path}`;
        expect(METHODS, name).toContain(method);
        expect(Object.keys(operation.responses ?? {}).length, name).toBeGreaterThan(0);
        for (const status of Object.keys(operation.responses)) expect(status, name).toMatch(/^[1-5]\d\d$/);
        const declared = (operation.parameters as Json[])
          .map((parameter) => (parameter.$ref ? resolve(document, parameter.$ref) : parameter))
          .filter((parameter) => parameter.in === 'path');
        expect(declared.map((parameter) => parameter.name).sort(), name).toEqual(templated);
        for (const parameter of declared) expect(parameter.required, name).toBe(true);
        for (const requirement of operation.security) {
          for (const scheme of Object.keys(requirement))
            expect(document.components.securitySchemes, name).toHaveProperty(scheme);
        }
      }
    }
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(100);
    for (const ref of new Set(refs)) expect(resolve(document, ref), ref).toBeDefined();
  });

  it('offers bearer access tokens and X-Api-Token, and one error schema for every error answer', () => {
    expect(document.components.securitySchemes).toEqual({
      bearerToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      apiToken: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-Api-Token' }),
    });
    for (const [name, operation] of operationsOf(document)) {
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        if (Number(status) < 400) continue;
        expect(resolve(document, response.$ref)?.content['application/json'].schema, name).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
    }
    expect(document.components.schemas.Error.required).toEqual(['errors', 'meta']);
    const [, me] = operationsOf(document).find(([name]) => name === 'GET /api/v1/users/me') ?? [];
    expect(me?.security).toEqual([{ bearerToken: [] }, { apiToken: [] }]);
    expect(me?.responses['200'].content['application/json'].schema).toEqual({
      allOf: [
        { $ref: '#/components/schemas/Envelope' },
        { type: 'object', properties: { data: { $ref: '#/components/schemas/User' } } },
      ],
    });
    const [, signIn] = operationsOf(document).find(([name]) => name === 'POST /api/v1/access-tokens') ?? [];
    expect(signIn?.security).toEqual([]);
  });

  it('gives every timestamp as an integer: milliseconds since the epoch (int64), never a string', () => {
    const schemas = document.components.schemas as Json;
    expect(schemas.Timestamp).toEqual({
      type: 'integer',
      format: 'int64',
      description: expect.stringMatching(/milliseconds since the Unix epoch/i),
      examples: [expect.any(Number)],
    });
    const timestamp = { $ref: '#/components/schemas/Timestamp' };
    const nullable = { anyOf: [timestamp, { type: 'null' }] };
    // Every property that names a moment, in every schema, however deep.
    const moments: [string, unknown][] = [];
    const walk = (node: unknown, where: string): void => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'properties') {
          for (const [name, property] of Object.entries(value as Json)) {
            if (/At$|^period(Start|End)$|^(start|end)$/.test(name)) moments.push([`${where}.${name}`, property]);
          }
        }
        walk(value, `${where}.${key}`);
      }
    };
    walk(schemas, 'schemas');
    expect(moments.length).toBeGreaterThan(40);
    for (const [where, property] of moments) expect([timestamp, nullable], where).toContainEqual(property);
    expect(schemas.Flow.properties.publishedAt).toEqual(nullable);
    expect(schemas.License.properties.expireAt).toEqual(nullable);
  });

  it('describes each resource a route answers, with what Automatisch embeds', () => {
    const schemas = document.components.schemas as Json;
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    // An execution embeds its flow, steps and all; a record embeds its step (null once deleted).
    expect(schemas.Execution.properties.flow).toEqual(ref('Flow'));
    expect(schemas.Flow.properties.steps).toEqual({ type: 'array', items: ref('Step') });
    expect(schemas.ExecutionStep.properties.step).toEqual({ anyOf: [ref('Step'), { type: 'null' }] });
    expect(schemas.ExecutionDetail.properties.steps).toEqual({ type: 'array', items: ref('ExecutionStep') });
    const dataOf = (name: string) => {
      const [, operation] = operationsOf(document).find(([n]) => n === name) ?? [];
      const success = Object.entries(operation?.responses ?? {}).find(([status]) => status.startsWith('2'));
      return (success?.[1] as Json | undefined)?.content['application/json'].schema.allOf[1].properties.data;
    };
    expect(dataOf('GET /api/v1/executions')).toEqual({ type: 'array', items: ref('Execution') });
    expect(dataOf('GET /api/v1/executions/{executionId}')).toEqual(ref('ExecutionDetail'));
    expect(dataOf('GET /api/v1/executions/{executionId}/execution-steps')).toEqual({
      type: 'array',
      items: ref('ExecutionStep'),
    });
    // Every route that answers one of these resources says which, as one or as a list.
    const named = new Set(Object.keys(schemas));
    for (const operation of OPERATIONS) {
      const name = `${operation.method} ${operation.path}`;
      if (operation.status === 204 || !named.has(operation.returns)) continue;
      expect(operation.answer, name).toBeDefined();
      if (operation.paged) expect(operation.answer?.type, name).toBe('array');
    }
  });

  it('converts every request schema, and requires exactly the fields the validator reports missing', () => {
    for (const operation of OPERATIONS) {
      const name = `${operation.method} ${operation.path}`;
      if (operation.query) expect(() => queryJsonSchema(operation.query as v.GenericSchema), name).not.toThrow();
      if (!operation.body) continue;
      const schema = bodyJsonSchema(operation.body);
      if (schema.type !== 'object') continue;
      const parsed = v.safeParse(operation.body, {});
      // A rule on the whole object (e.g. "one of these two fields") has no path and no JSON Schema form.
      const missing = parsed.success ? [] : parsed.issues.flatMap((issue) => v.getDotPath(issue) ?? []);
      expect([...(schema.required ?? [])].sort(), name).toEqual(missing.sort());
    }
  });

  it('shows the body schema a route validates with', () => {
    const body = document.paths['/api/v1/folders'].post.requestBody.content['application/json'].schema;
    expect(body).toEqual(expect.objectContaining({ type: 'object', required: ['name'], additionalProperties: false }));
    expect(body.properties.name).toEqual({ type: 'string', minLength: 1, maxLength: 255 });
    const flows = document.paths['/api/v1/flows'].get.parameters.map(
      (parameter: Json) => parameter.name ?? parameter.$ref,
    );
    expect(flows).toEqual([
      'name',
      'status',
      'folderId',
      'onlyOwnedFlows',
      '#/components/parameters/page',
      '#/components/parameters/perPage',
    ]);
  });
});

describe.each(DIALECTS)('what the document says is what the server enforces (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeAll(async () => {
    instance = await startTestInstance(dialect, enterpriseEnv());
    token = await installAndSignIn(instance);
  });
  afterAll(() => instance.close());

  it('refuses a body without a field the document lists as required, and takes one with it', async () => {
    const document = (await instance.request('GET', '/openapi.json', { mount: '/api' })).body;
    const schema = document.paths['/api/v1/folders'].post.requestBody.content['application/json'].schema;
    expect(schema.required).toContain('name');
    const missing = await instance.request('POST', '/folders', { token, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ errors: { name: ['is required.'] }, meta: { type: 'ValidationError' } });
    const extra = await instance.request('POST', '/folders', { token, body: { name: 'A', other: 1 } });
    expect(extra.status).toBe(422); // additionalProperties: false
    const created = await instance.request('POST', '/folders', { token, body: { name: 'Reports' } });
    expect(created.status).toBe(201);
  });

  it('names, for every JSON body, exactly the missing fields the document requires', async () => {
    const document = (await instance.request('GET', '/openapi.json', { mount: '/api' })).body;
    const flow = (await instance.request('POST', '/flows', { token })).body.data;
    const folder = (await instance.request('POST', '/folders', { token, body: { name: 'Kept' } })).body.data;
    const template = (
      await instance.request('POST', '/admin/templates', { token, body: { name: 'Kept', flowId: flow.id } })
    ).body.data;
    const ids: Record<string, string> = {
      flowId: flow.id,
      stepId: flow.steps[0].id,
      folderId: folder.id,
      templateId: template.id,
      userId: (await instance.request('GET', '/users/me', { token })).body.data.id,
      mcpServerId: (await instance.request('POST', '/mcp-servers', { token, body: { name: 'Kept' } })).body.data.id,
      agentId: (await instance.request('POST', '/agents', { token, body: { name: 'Kept' } })).body.data.id,
    };
    const checked: string[] = [];
    for (const [name, operation] of operationsOf(document)) {
      const schema = operation.requestBody?.content['application/json']?.schema;
      const [method, path] = name.split(' ') as [string, string];
      if (!schema?.required?.length || !path.startsWith('/api/v1/')) continue;
      // Installed, this instance refuses installation before its body (installation.test.ts checks its fields).
      if (name === 'POST /api/v1/installation/users') continue;
      // Only a call an agent's run waits on is answered before its body (agent-runs.test.ts checks its fields).
      if (name === 'POST /api/v1/executions/{executionId}/calls/{callId}/approval') continue;
      // The caller's access to the path's resource is checked before the body: name real ones.
      const concrete = path
        .slice('/api/v1'.length)
        .replace(/\{appKey\}/g, 'webhook')
        .replace(/\{(\w+)\}/g, (_whole, param: string) => ids[param] ?? MISSING);
      // The console's header too: its session routes refuse requests without it before the body.
      const res = await instance.request(method, concrete, { token, body: {}, headers: { 'x-conveyor-console': '1' } });
      expect(res.status, name).toBe(422);
      const named = Object.keys(res.body.errors).filter((field) => field !== 'general');
      expect(named.sort(), name).toEqual([...(schema.required ?? [])].sort());
      checked.push(name);
    }
    expect(checked.length).toBeGreaterThan(15);
  });

  it('answers the reference page as self-contained, escaped HTML', async () => {
    const res = await instance.conveyor.app.request('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<code>/api/v1/flows/{flowId}</code>');
    expect(html).toContain('Import an export document');
    expect(html).toContain('admin, EE');
    expect(html).toContain('<h2>Single sign-on</h2>');
    expect(html).toContain('Change own password');
    expect(html).toContain('<code>422</code> Invalid input');
    // summaries with quotes are escaped, and nothing is loaded from elsewhere
    expect(html).toContain('An app&#39;s triggers with their arguments');
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\//);
  });

  it('needs no credentials for either', async () => {
    expect((await instance.conveyor.app.request('/api/openapi.json')).status).toBe(200);
    expect((await instance.conveyor.app.request('/api/docs')).status).toBe(200);
  });
});

describe('escapeHtml', () => {
  it('escapes what could open markup or an attribute', () => {
    expect(escapeHtml(`<img src=x onerror="a('&')">`)).toBe('&lt;img src=x onerror=&quot;a(&#39;&amp;&#39;)&quot;&gt;');
  });
});
