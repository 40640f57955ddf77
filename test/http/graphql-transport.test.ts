import { buildClientSchema, getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturingLogger } from '../support/capturing-logger.js';
import { DIALECTS } from '../support/databases.js';
import {
  answer,
  BODY_LIMIT,
  CURRENT_USER,
  clientOf,
  graphqlWorld,
  UPDATE_STEP,
  UPDATE_USER,
} from '../support/graphql.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { listen } from '../support/listening.js';
import { rawExecute } from '../support/raw-sql.js';

describe.each(DIALECTS)('GraphQL over HTTP: authentication, schema, limits, transport (%s)', (dialect) => {
  const gql = graphqlWorld(dialect);
  const { as, send, requestError, raw, restStep } = gql;

  describe('authentication', () => {
    it('is the same as REST: Bearer, a bare access token, or an API token', async () => {
      const bare = await answer(() =>
        clientOf(gql.url, { authorization: gql.world.bob.token }).rawRequest(CURRENT_USER),
      );
      expect(bare.data.currentUser.id).toBe(gql.world.bob.id);
      const apiToken = (await gql.world.call('POST', '/admin/api-tokens', gql.world.adminToken)).token;
      const byApiToken = await answer(() => clientOf(gql.url, { 'x-api-token': apiToken }).rawRequest(CURRENT_USER));
      expect(byApiToken.data.currentUser.email).toBe('ada@example.com');
    });

    it('answers 401 UnauthenticatedError without credentials or with a wrong token, and runs nothing', async () => {
      const flow = await gql.world.newFlow(gql.world.bob.token);
      const wrong: Record<string, string>[] = [
        {},
        { authorization: 'Bearer not-a-token' },
        { 'x-api-token': 'not-a-token' },
      ];
      for (const headers of wrong) {
        const res = await answer(() =>
          clientOf(gql.url, headers).rawRequest(UPDATE_STEP, { input: { id: flow.actionId, name: 'Anonymous' } }),
        );
        expect(res.status).toBe(401);
        expect(res.data).toBeUndefined();
        expect(res.errors).toEqual([
          { message: 'Authentication is required.', extensions: { code: 'UnauthenticatedError' } },
        ]);
      }
      expect((await restStep(gql.world.bob.token, flow.id, flow.actionId)).name).not.toBe('Anonymous');
    });

    it('allows introspection to signed-in callers only', async () => {
      const res = await send(gql.world.bob.token, getIntrospectionQuery());
      expect(res.errors).toBeUndefined();
      const schema = buildClientSchema(res.data);
      expect(Object.keys(schema.getMutationType()?.getFields() ?? {})).toEqual([
        'updateStep',
        'updateUser',
        'verifyConnection',
        'upsertSamlAuthProvider',
      ]);
      expect((await answer(() => clientOf(gql.url).rawRequest(getIntrospectionQuery()))).status).toBe(401);
    });
  });

  describe('the schema', () => {
    it('has no createSamlAuthProvider and no CreateSamlAuthProviderInput: naming them fails validation', async () => {
      const field = requestError(
        await send(
          gql.world.adminToken,
          'mutation { createSamlAuthProvider(input: { name: "Okta", certificate: "x", signatureAlgorithm: "sha256" }) { id } }',
        ),
      );
      // graphql-js points to the new name.
      expect(field).toBe(
        'Cannot query field "createSamlAuthProvider" on type "Mutation". Did you mean "upsertSamlAuthProvider"?',
      );
      const res = await send(
        gql.world.adminToken,
        'mutation ($input: CreateSamlAuthProviderInput) { updateUser(input: $input) { id } }',
      );
      expect(res.errors?.map((e) => e.message)).toContain(
        'Unknown type "CreateSamlAuthProviderInput". Did you mean "UpsertSamlAuthProviderInput" or "SamlAuthProvider"?',
      );
      expect(res.data).toBeUndefined();
    });

    it('runs the named operation of a document that has several, and asks for a name otherwise', async () => {
      const document = `query Me { currentUser { id } } mutation Rename { updateUser(input: { id: "${gql.world.bob.id}", fullName: "Never" }) { id } }`;
      const post = (body: unknown) =>
        raw({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(requestError(await post({ query: document }))).toBe(
        'Must provide operation name if query contains multiple operations.',
      );
      expect((await post({ query: document, operationName: 'Me' })).data).toEqual({
        currentUser: { id: gql.world.bob.id },
      });
      expect((await gql.world.call('GET', '/users/me', gql.world.bob.token)).fullName).not.toBe('Never');
    });
  });

  describe('limits', () => {
    it('refuses an operation nested deeper than the depth limit before validating it', async () => {
      const deep = '{ currentUser { role { a { b { c { d { e } } } } } } }';
      expect(requestError(await send(gql.world.bob.token, deep))).toBe(
        'The operation nests fields 7 deep; at most 6 levels are allowed.',
      );
    });

    it('refuses an operation over the cost limit, such as many aliases of one field', async () => {
      const fields = 'id email role { name } permissions { action subject conditions }';
      const greedy = `{ ${Array.from({ length: 40 }, (_, i) => `u${i}: currentUser { ${fields} }`).join(' ')} }`;
      expect(requestError(await send(gql.world.bob.token, greedy))).toMatch(
        /^The operation costs \d+; at most 1000 is allowed\.$/,
      );
      const modest = `{ ${Array.from({ length: 5 }, (_, i) => `u${i}: currentUser { ${fields} }`).join(' ')} }`;
      expect((await send(gql.world.bob.token, modest)).data.u4.id).toBe(gql.world.bob.id);
    });

    it('refuses a document of too many tokens before parsing it all', async () => {
      const long = `{ currentUser { ${'id '.repeat(2500)} } }`;
      expect(requestError(await send(gql.world.bob.token, long))).toMatch(
        /^Syntax Error: Document contains more .* 2000 tokens\. Parsing aborted\.$/,
      );
    });

    it('answers 413 PayloadTooLargeError in GraphQL shape past the body limit', async () => {
      const res = await send(gql.world.bob.token, CURRENT_USER, { padding: 'x'.repeat(BODY_LIMIT) });
      expect(res.status).toBe(413);
      expect(res.errors).toEqual([
        { message: `The request body exceeds ${BODY_LIMIT} bytes.`, extensions: { code: 'PayloadTooLargeError' } },
      ]);
    });
  });

  describe('transport', () => {
    it('answers GET with 405 and Allow: POST, so no query and no mutation runs from a link', async () => {
      const viaClient = await answer(() =>
        clientOf(gql.url, { authorization: `Bearer ${gql.world.bob.token}` }, 'GET').rawRequest(CURRENT_USER),
      );
      expect(viaClient.status).toBe(405);
      expect(viaClient.headers.get('allow')).toBe('POST');
      expect(viaClient.errors).toEqual([
        { message: 'This address answers only POST.', extensions: { code: 'MethodNotAllowedError' } },
      ]);
      const mutation = `mutation { updateUser(input: { id: "${gql.world.bob.id}", fullName: "Linked" }) { id } }`;
      const viaLink = await raw({ method: 'GET' }, `?query=${encodeURIComponent(mutation)}`);
      expect(viaLink.status).toBe(405);
      expect((await gql.world.call('GET', '/users/me', gql.world.bob.token)).fullName).not.toBe('Linked');
    });

    it('answers 400 BadRequestError to a body that is not a JSON request', async () => {
      const cases: [RequestInit & { headers?: Record<string, string> }, string][] = [
        [
          { method: 'POST', headers: { 'content-type': 'application/graphql' }, body: CURRENT_USER },
          'The request body must be JSON (Content-Type: application/json).',
        ],
        [
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' },
          'The request body is not valid JSON.',
        ],
        [
          { method: 'POST', headers: { 'content-type': 'application/json' } },
          'The body must be a JSON object with a "query" string.',
        ],
        [
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"variables": {}}' },
          '"query" is required: the GraphQL document, as a string.',
        ],
        [
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": {"kind": "Document"}}' },
          '"query" must be a string: the GraphQL document.',
        ],
        [
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: '"{ currentUser { id } }"' },
          'The body must be a JSON object with a "query" string.',
        ],
        [
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"query": "{ currentUser { id } }", "variables": [1]}',
          },
          '"variables" must be an object.',
        ],
      ];
      for (const [init, message] of cases) {
        const res = await raw(init);
        expect(res.status).toBe(400);
        expect(res.errors).toEqual([{ message, extensions: { code: 'BadRequestError' } }]);
      }
    });

    it('refuses a batch with a clear 400', async () => {
      const res = await answer(() =>
        as(gql.world.bob.token).batchRequests([{ document: CURRENT_USER }, { document: CURRENT_USER }]),
      );
      expect(res.status).toBe(400);
      expect(res.errors).toEqual([
        {
          message: 'Batched requests are not supported: send one operation per request.',
          extensions: { code: 'BadRequestError' },
        },
      ]);
    });
  });
});

describe.each(DIALECTS)('GraphQL, an unexpected failure (%s)', (dialect) => {
  let instance: TestInstance;
  let logger: CapturingLogger;
  let token: string;
  beforeAll(async () => {
    logger = new CapturingLogger();
    instance = await startTestInstance(dialect, {}, { logger }, { onDisk: true });
    token = await installAndSignIn(instance);
  });
  afterAll(() => instance.close());

  it('shows "Internal error" and nothing of the cause, which the log keeps under the request id', async () => {
    // The database refuses every change of a user, with SQL in its message.
    const detail = 'update users set password_hash = secret refused';
    await rawExecute(
      instance.database.url,
      dialect === 'postgres'
        ? `create function refuse_user_update() returns trigger language plpgsql as $$
             begin raise exception '${detail}'; end $$;
           create trigger refuse_user_update before update on users for each row execute function refuse_user_update();`
        : `create trigger refuse_user_update before update on users begin select raise(abort, '${detail}'); end;`,
    );
    const { url, close } = await listen(instance);
    try {
      const me = (await instance.request('GET', '/users/me', { token })).body.data.id;
      const res = await answer(() =>
        clientOf(url, { authorization: `Bearer ${token}` }).rawRequest(UPDATE_USER, {
          input: { id: me, fullName: 'Refused' },
        }),
      );
      expect(res.status).toBe(200);
      expect(res.data).toEqual({ updateUser: null });
      expect(res.errors).toEqual([
        {
          message: 'Internal error',
          locations: [{ line: 2, column: 3 }],
          path: ['updateUser'],
          extensions: { code: 'InternalError' },
        },
      ]);
      const requestId = res.headers.get('x-request-id');
      const logged = logger.entries.find((e) => e.message === 'unhandled error while resolving a GraphQL field');
      expect(logged?.fields.requestId).toBe(requestId);
      expect(JSON.stringify(logged?.fields)).toContain(detail);
    } finally {
      await close();
    }
  });

  it('answers 500 in GraphQL shape, again with nothing of the cause, when the request fails before GraphQL', async () => {
    // Authentication itself now fails: the table it reads is gone.
    await rawExecute(instance.database.url, 'alter table access_tokens rename to access_tokens_gone');
    const { url, close } = await listen(instance);
    try {
      const res = await answer(() => clientOf(url, { authorization: `Bearer ${token}` }).rawRequest(CURRENT_USER));
      expect(res.status).toBe(500);
      expect(res.data).toBeUndefined();
      expect(res.errors).toEqual([{ message: 'Internal error', extensions: { code: 'InternalError' } }]);
      const logged = logger.entries.find((e) => e.message === 'unhandled error while serving a request');
      expect(logged?.fields.requestId).toBe(res.headers.get('x-request-id'));
      expect(JSON.stringify(logged?.fields)).toContain('access_tokens');
    } finally {
      await close();
    }
  });
});
