import { buildClientSchema, getIntrospectionQuery } from 'graphql';
import { ClientError, GraphQLClient, type Variables } from 'graphql-request';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturingLogger } from '../support/capturing-logger.js';
import { DIALECTS } from '../support/databases.js';
import { NOTES_CREDENTIALS } from '../support/flow-apps.js';
import { type FlowWorld, READ_ALL_MANAGE_OWN, startFlowWorld } from '../support/flow-fixtures.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { listen } from '../support/listening.js';
import { rawExecute } from '../support/raw-sql.js';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const BODY_LIMIT = 16 * 1024;

const UPDATE_STEP = `mutation UpdateStep($input: UpdateStepInput) {
  updateStep(input: $input) { id flowId type appKey key name position status parameters connectionId }
}`;
const UPDATE_USER = `mutation UpdateUser($input: UpdateUserInput) {
  updateUser(input: $input) { id email fullName status role { name isAdmin } permissions { action subject conditions } }
}`;
const VERIFY_CONNECTION = `mutation VerifyConnection($input: VerifyConnectionInput) {
  verifyConnection(input: $input) { id key verified formattedData { screenName } }
}`;
const CURRENT_USER = 'query { currentUser { id email fullName } }';

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly data?: any;
  readonly errors?: readonly any[];
}

/** A GraphQL client of the listening server; `errorPolicy: 'all'` hands back data and errors together. */
const clientOf = (url: string, headers: Record<string, string> = {}, method: 'POST' | 'GET' = 'POST') =>
  new GraphQLClient(`${url}/graphql`, { headers, errorPolicy: 'all', method });

/** The whole answer as a client gets it, whether graphql-request reports it as a success or throws it. */
const answer = async (run: () => Promise<any>): Promise<Answer> => {
  try {
    const { status, headers, data, errors } = await run();
    return { status, headers, data, errors };
  } catch (error) {
    if (!(error instanceof ClientError)) throw error;
    const { status, headers, data, errors } = error.response;
    return { status, headers, data, errors };
  }
};

describe.each(DIALECTS)('GraphQL over HTTP (%s)', (dialect) => {
  let world: FlowWorld;
  let url: string;
  let closeServer: () => Promise<void>;
  beforeAll(async () => {
    world = await startFlowWorld(dialect, { BODY_LIMIT_BYTES: String(BODY_LIMIT) });
    ({ url, close: closeServer } = await listen(world.instance));
  });
  afterAll(async () => {
    await closeServer();
    await world.close();
  });

  const as = (token: string) => clientOf(url, { authorization: `Bearer ${token}` });
  const send = (token: string, query: string, variables?: Variables) =>
    answer(() => as(token).rawRequest(query, variables));
  /** The one error of a field that failed, with the field's data null. */
  const fieldError = (res: Answer, field: string) => {
    expect(res.status).toBe(200);
    expect(res.data).toEqual({ [field]: null });
    expect(res.errors).toHaveLength(1);
    expect(res.errors?.[0].path).toEqual([field]);
    return res.errors?.[0];
  };
  /** The one error of a request GraphQL refused before running it: no data at all. */
  const requestError = (res: Answer) => {
    expect(res.status).toBe(200);
    expect(res.data).toBeUndefined();
    expect(res.errors).toHaveLength(1);
    expect(res.errors?.[0].extensions).toEqual({ code: 'BadRequestError' });
    return res.errors?.[0].message as string;
  };
  /** Bob's request as written, for what a GraphQL client would not send. */
  const raw = async (init: RequestInit & { headers?: Record<string, string> }, search = ''): Promise<Answer> => {
    const res = await fetch(`${url}/graphql${search}`, {
      ...init,
      headers: { authorization: `Bearer ${world.bob.token}`, ...init.headers },
    });
    return { status: res.status, headers: res.headers, ...((await res.json()) as object) };
  };
  const restStep = async (token: string, flowId: string, stepId: string) =>
    (await world.call('GET', `/flows/${flowId}`, token)).steps.find((s: { id: string }) => s.id === stepId);

  describe('updateStep', () => {
    it('changes a step as PATCH /steps/:stepId does, and answers the same Step', async () => {
      const flow = await world.newFlow(world.bob.token);
      const connectionId = await world.newNotesConnection(world.bob.token);
      const input = {
        id: flow.actionId,
        appKey: 'test-notes',
        key: 'addNote',
        name: 'Note it',
        connectionId,
        parameters: { title: 'Hello', copies: 2 },
      };
      const res = await send(world.bob.token, UPDATE_STEP, { input });
      expect(res.status).toBe(200);
      expect(res.errors).toBeUndefined();
      expect(res.data.updateStep).toEqual({
        id: flow.actionId,
        flowId: flow.id,
        type: 'action',
        appKey: 'test-notes',
        key: 'addNote',
        name: 'Note it',
        position: 2,
        status: 'completed',
        parameters: { title: 'Hello', copies: 2 },
        connectionId,
      });
      const stored = await restStep(world.bob.token, flow.id, flow.actionId);
      expect(stored).toMatchObject(res.data.updateStep);
    });

    it('takes parameters written in the document, and null to clear a field', async () => {
      const flow = await world.newFlow(world.bob.token);
      const named = await send(
        world.bob.token,
        `mutation { updateStep(input: { id: "${flow.actionId}", appKey: "formatter", key: "text", name: "Shout",
          parameters: { transform: "uppercase", input: "hi", nested: [1, { deep: true }] } }) { name parameters } }`,
      );
      expect(named.data.updateStep).toEqual({
        name: 'Shout',
        parameters: { transform: 'uppercase', input: 'hi', nested: [1, { deep: true }] },
      });
      const cleared = await send(world.bob.token, UPDATE_STEP, { input: { id: flow.actionId, name: null } });
      expect(cleared.data.updateStep).toMatchObject({ name: null, appKey: 'formatter', key: 'text' });
    });

    it('refuses invalid fields as a ValidationError naming them, and changes nothing', async () => {
      const flow = await world.newFlow(world.bob.token);
      const empty = fieldError(
        await send(world.bob.token, UPDATE_STEP, { input: { id: flow.actionId, key: '' } }),
        'updateStep',
      );
      expect(empty).toMatchObject({
        message: 'key: must not be empty.',
        extensions: { code: 'ValidationError', fields: { key: ['must not be empty.'] } },
      });
      const notAnObject = fieldError(
        await send(world.bob.token, UPDATE_STEP, { input: { id: flow.actionId, parameters: [1, 2] } }),
        'updateStep',
      );
      expect(notAnObject.extensions).toEqual({
        code: 'ValidationError',
        fields: { parameters: ['must be an object.'] },
      });
      // The use case's own check, reported the same way.
      const unknownApp = fieldError(
        await send(world.bob.token, UPDATE_STEP, { input: { id: flow.actionId, appKey: 'no-such-app' } }),
        'updateStep',
      );
      expect(unknownApp.extensions.code).toBe('ValidationError');
      expect(Object.keys(unknownApp.extensions.fields)).toEqual(['appKey']);
      expect(await restStep(world.bob.token, flow.id, flow.actionId)).toMatchObject({ appKey: null, key: null });
    });

    it('refuses fields the input type does not have before running anything', async () => {
      const flow = await world.newFlow(world.bob.token);
      const input = { id: flow.actionId, continueOnFailure: true };
      const message = requestError(await send(world.bob.token, UPDATE_STEP, { input }));
      expect(message).toContain('Field "continueOnFailure" is not defined by type "UpdateStepInput".');
    });

    it('is NotFoundError for an unknown or malformed id', async () => {
      for (const id of [MISSING_ID, 'not-a-uuid']) {
        const error = fieldError(await send(world.bob.token, UPDATE_STEP, { input: { id, name: 'x' } }), 'updateStep');
        expect(error).toMatchObject({ message: 'Step not found.', extensions: { code: 'NotFoundError' } });
      }
    });

    it("hides another user's step, and refuses it to a role that may read but not manage it", async () => {
      const admins = await world.newFlow(world.adminToken);
      const input = { id: admins.actionId, name: 'Taken over' };
      const hidden = fieldError(await send(world.bob.token, UPDATE_STEP, { input }), 'updateStep');
      expect(hidden.extensions).toEqual({ code: 'NotFoundError' });
      const reader = await world.userWith(READ_ALL_MANAGE_OWN);
      const refused = fieldError(await send(reader.token, UPDATE_STEP, { input }), 'updateStep');
      expect(refused.extensions).toEqual({ code: 'ForbiddenError' });
      expect((await restStep(world.adminToken, admins.id, admins.actionId)).name).not.toBe('Taken over');
    });
  });

  describe('updateUser', () => {
    it('changes the caller’s own name and e-mail as PATCH /users/:userId does', async () => {
      const user = await world.userWith([]);
      const input = { id: user.id, fullName: '  Renamed Member ', email: `Renamed-${user.id}@Example.com` };
      const res = await send(user.token, UPDATE_USER, { input });
      expect(res.errors).toBeUndefined();
      expect(res.data.updateUser).toEqual({
        id: user.id,
        email: `renamed-${user.id}@example.com`,
        fullName: 'Renamed Member',
        status: 'active',
        role: { name: expect.any(String), isAdmin: false },
        permissions: [],
      });
      expect(await world.call('GET', '/users/me', user.token)).toMatchObject({
        fullName: 'Renamed Member',
        email: `renamed-${user.id}@example.com`,
      });
    });

    it("refuses another user's account with ForbiddenError, whatever the role", async () => {
      const adminId = (await world.call('GET', '/users/me', world.adminToken)).id;
      const input = { id: adminId, fullName: 'Not Ada' };
      expect(fieldError(await send(world.bob.token, UPDATE_USER, { input }), 'updateUser')).toMatchObject({
        message: 'You can only change your own account.',
        extensions: { code: 'ForbiddenError' },
      });
      expect(
        fieldError(await send(world.adminToken, UPDATE_USER, { input: { id: world.bob.id } }), 'updateUser').extensions,
      ).toEqual({
        code: 'ForbiddenError',
      });
      expect((await world.call('GET', '/users/me', world.adminToken)).fullName).not.toBe('Not Ada');
    });

    it('answers a taken e-mail and a malformed one as REST does', async () => {
      const user = await world.userWith([]);
      const taken = fieldError(
        await send(user.token, UPDATE_USER, { input: { id: user.id, email: 'BOB@example.com' } }),
        'updateUser',
      );
      expect(taken.extensions).toEqual({
        code: 'UniqueViolationError',
        fields: { email: ["'email' must be unique."] },
      });
      const malformed = fieldError(
        await send(user.token, UPDATE_USER, { input: { id: user.id, email: 'nobody', fullName: '' } }),
        'updateUser',
      );
      expect(malformed.extensions).toEqual({
        code: 'ValidationError',
        fields: { email: ['must be a valid e-mail address.'], fullName: ['is required.'] },
      });
    });

    it('has no way to set a role: the input type does not know the field', async () => {
      const roleId = (await world.call('GET', '/users/me', world.adminToken)).roleId;
      const message = requestError(await send(world.bob.token, UPDATE_USER, { input: { id: world.bob.id, roleId } }));
      expect(message).toContain('Field "roleId" is not defined by type "UpdateUserInput".');
      expect((await world.call('GET', '/users/me', world.bob.token)).role.isAdmin).toBe(false);
    });
  });

  describe('verifyConnection', () => {
    it('checks the credentials with the app and answers the verified connection, without secrets', async () => {
      const id = (
        await world.call('POST', '/apps/test-notes/connections', world.bob.token, { formattedData: NOTES_CREDENTIALS })
      ).id;
      const res = await send(world.bob.token, VERIFY_CONNECTION, { input: { id } });
      expect(res.errors).toBeUndefined();
      expect(res.data.verifyConnection).toEqual({
        id,
        key: 'test-notes',
        verified: true,
        formattedData: { screenName: 'Nora' },
      });
      expect(JSON.stringify(res.data)).not.toContain(NOTES_CREDENTIALS.apiKey);
    });

    it("is ConnectionVerificationError with the app's reason when the check fails", async () => {
      const formattedData = { ...NOTES_CREDENTIALS, apiKey: 'bad-key' };
      const id = (await world.call('POST', '/apps/test-notes/connections', world.bob.token, { formattedData })).id;
      const error = fieldError(await send(world.bob.token, VERIFY_CONNECTION, { input: { id } }), 'verifyConnection');
      expect(error).toMatchObject({ extensions: { code: 'ConnectionVerificationError' } });
      expect(error.message).toContain('The key was refused.');
    });

    it("is NotFoundError for an unknown connection and for another user's", async () => {
      const admins = await world.newNotesConnection(world.adminToken);
      for (const id of [MISSING_ID, admins]) {
        const error = fieldError(await send(world.bob.token, VERIFY_CONNECTION, { input: { id } }), 'verifyConnection');
        expect(error).toMatchObject({ message: 'Connection not found.', extensions: { code: 'NotFoundError' } });
      }
    });
  });

  describe('a missing input', () => {
    it.each([
      ['updateStep', UPDATE_STEP],
      ['updateUser', UPDATE_USER],
      ['verifyConnection', VERIFY_CONNECTION],
    ])('is a ValidationError of %s, left out or null', async (field, document) => {
      for (const variables of [{}, { input: null }]) {
        expect(fieldError(await send(world.bob.token, document, variables), field)).toMatchObject({
          message: 'input: is required.',
          extensions: { code: 'ValidationError', fields: { input: ['is required.'] } },
        });
      }
      const inline = await send(world.bob.token, `mutation { ${field} { __typename } }`);
      expect(fieldError(inline, field).extensions.code).toBe('ValidationError');
    });
  });

  describe('authentication', () => {
    it('is the same as REST: Bearer, a bare access token, or an API token', async () => {
      const bare = await answer(() => clientOf(url, { authorization: world.bob.token }).rawRequest(CURRENT_USER));
      expect(bare.data.currentUser.id).toBe(world.bob.id);
      const apiToken = (await world.call('POST', '/admin/api-tokens', world.adminToken)).token;
      const byApiToken = await answer(() => clientOf(url, { 'x-api-token': apiToken }).rawRequest(CURRENT_USER));
      expect(byApiToken.data.currentUser.email).toBe('ada@example.com');
    });

    it('answers 401 UnauthenticatedError without credentials or with a wrong token, and runs nothing', async () => {
      const flow = await world.newFlow(world.bob.token);
      const wrong: Record<string, string>[] = [
        {},
        { authorization: 'Bearer not-a-token' },
        { 'x-api-token': 'not-a-token' },
      ];
      for (const headers of wrong) {
        const res = await answer(() =>
          clientOf(url, headers).rawRequest(UPDATE_STEP, { input: { id: flow.actionId, name: 'Anonymous' } }),
        );
        expect(res.status).toBe(401);
        expect(res.data).toBeUndefined();
        expect(res.errors).toEqual([
          { message: 'Authentication is required.', extensions: { code: 'UnauthenticatedError' } },
        ]);
      }
      expect((await restStep(world.bob.token, flow.id, flow.actionId)).name).not.toBe('Anonymous');
    });

    it('allows introspection to signed-in callers only', async () => {
      const res = await send(world.bob.token, getIntrospectionQuery());
      expect(res.errors).toBeUndefined();
      const schema = buildClientSchema(res.data);
      expect(Object.keys(schema.getMutationType()?.getFields() ?? {})).toEqual([
        'updateStep',
        'updateUser',
        'verifyConnection',
        'upsertSamlAuthProvider',
      ]);
      expect((await answer(() => clientOf(url).rawRequest(getIntrospectionQuery()))).status).toBe(401);
    });
  });

  describe('the schema', () => {
    it('has no createSamlAuthProvider and no CreateSamlAuthProviderInput: naming them fails validation', async () => {
      const field = requestError(
        await send(
          world.adminToken,
          'mutation { createSamlAuthProvider(input: { name: "Okta", certificate: "x", signatureAlgorithm: "sha256" }) { id } }',
        ),
      );
      // graphql-js points to the new name.
      expect(field).toBe(
        'Cannot query field "createSamlAuthProvider" on type "Mutation". Did you mean "upsertSamlAuthProvider"?',
      );
      const res = await send(
        world.adminToken,
        'mutation ($input: CreateSamlAuthProviderInput) { updateUser(input: $input) { id } }',
      );
      expect(res.errors?.map((e) => e.message)).toContain(
        'Unknown type "CreateSamlAuthProviderInput". Did you mean "UpsertSamlAuthProviderInput" or "SamlAuthProvider"?',
      );
      expect(res.data).toBeUndefined();
    });

    it('runs the named operation of a document that has several, and asks for a name otherwise', async () => {
      const document = `query Me { currentUser { id } } mutation Rename { updateUser(input: { id: "${world.bob.id}", fullName: "Never" }) { id } }`;
      const post = (body: unknown) =>
        raw({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(requestError(await post({ query: document }))).toBe(
        'Must provide operation name if query contains multiple operations.',
      );
      expect((await post({ query: document, operationName: 'Me' })).data).toEqual({
        currentUser: { id: world.bob.id },
      });
      expect((await world.call('GET', '/users/me', world.bob.token)).fullName).not.toBe('Never');
    });
  });

  describe('limits', () => {
    it('refuses an operation nested deeper than the depth limit before validating it', async () => {
      const deep = '{ currentUser { role { a { b { c { d { e } } } } } } }';
      expect(requestError(await send(world.bob.token, deep))).toBe(
        'The operation nests fields 7 deep; at most 6 levels are allowed.',
      );
    });

    it('refuses an operation over the cost limit, such as many aliases of one field', async () => {
      const fields = 'id email role { name } permissions { action subject conditions }';
      const greedy = `{ ${Array.from({ length: 40 }, (_, i) => `u${i}: currentUser { ${fields} }`).join(' ')} }`;
      expect(requestError(await send(world.bob.token, greedy))).toMatch(
        /^The operation costs \d+; at most 1000 is allowed\.$/,
      );
      const modest = `{ ${Array.from({ length: 5 }, (_, i) => `u${i}: currentUser { ${fields} }`).join(' ')} }`;
      expect((await send(world.bob.token, modest)).data.u4.id).toBe(world.bob.id);
    });

    it('refuses a document of too many tokens before parsing it all', async () => {
      const long = `{ currentUser { ${'id '.repeat(2500)} } }`;
      expect(requestError(await send(world.bob.token, long))).toMatch(
        /^Syntax Error: Document contains more .* 2000 tokens\. Parsing aborted\.$/,
      );
    });

    it('answers 413 PayloadTooLargeError in GraphQL shape past the body limit', async () => {
      const res = await send(world.bob.token, CURRENT_USER, { padding: 'x'.repeat(BODY_LIMIT) });
      expect(res.status).toBe(413);
      expect(res.errors).toEqual([
        { message: `The request body exceeds ${BODY_LIMIT} bytes.`, extensions: { code: 'PayloadTooLargeError' } },
      ]);
    });
  });

  describe('transport', () => {
    it('answers GET with 405 and Allow: POST, so no query and no mutation runs from a link', async () => {
      const viaClient = await answer(() =>
        clientOf(url, { authorization: `Bearer ${world.bob.token}` }, 'GET').rawRequest(CURRENT_USER),
      );
      expect(viaClient.status).toBe(405);
      expect(viaClient.headers.get('allow')).toBe('POST');
      expect(viaClient.errors).toEqual([
        { message: 'This address answers only POST.', extensions: { code: 'MethodNotAllowedError' } },
      ]);
      const mutation = `mutation { updateUser(input: { id: "${world.bob.id}", fullName: "Linked" }) { id } }`;
      const viaLink = await raw({ method: 'GET' }, `?query=${encodeURIComponent(mutation)}`);
      expect(viaLink.status).toBe(405);
      expect((await world.call('GET', '/users/me', world.bob.token)).fullName).not.toBe('Linked');
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
        as(world.bob.token).batchRequests([{ document: CURRENT_USER }, { document: CURRENT_USER }]),
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
