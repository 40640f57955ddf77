import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { NOTES_CREDENTIALS } from '../support/flow-apps.js';
import { READ_ALL_MANAGE_OWN } from '../support/flow-fixtures.js';
import { graphqlWorld, MISSING_ID, UPDATE_STEP, UPDATE_USER, VERIFY_CONNECTION } from '../support/graphql.js';

describe.each(DIALECTS)('GraphQL mutations over HTTP (%s)', (dialect) => {
  const gql = graphqlWorld(dialect);
  const { send, fieldError, requestError, restStep } = gql;

  describe('updateStep', () => {
    it('changes a step as PATCH /steps/:stepId does, and answers the same Step', async () => {
      const flow = await gql.world.newFlow(gql.world.bob.token);
      const connectionId = await gql.world.newNotesConnection(gql.world.bob.token);
      const input = {
        id: flow.actionId,
        appKey: 'test-notes',
        key: 'addNote',
        name: 'Note it',
        connectionId,
        parameters: { title: 'Hello', copies: 2 },
      };
      const res = await send(gql.world.bob.token, UPDATE_STEP, { input });
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
      const stored = await restStep(gql.world.bob.token, flow.id, flow.actionId);
      expect(stored).toMatchObject(res.data.updateStep);
    });

    it('takes parameters written in the document, and null to clear a field', async () => {
      const flow = await gql.world.newFlow(gql.world.bob.token);
      const named = await send(
        gql.world.bob.token,
        `mutation { updateStep(input: { id: "${flow.actionId}", appKey: "formatter", key: "text", name: "Shout",
          parameters: { transform: "uppercase", input: "hi", nested: [1, { deep: true }] } }) { name parameters } }`,
      );
      expect(named.data.updateStep).toEqual({
        name: 'Shout',
        parameters: { transform: 'uppercase', input: 'hi', nested: [1, { deep: true }] },
      });
      const cleared = await send(gql.world.bob.token, UPDATE_STEP, { input: { id: flow.actionId, name: null } });
      expect(cleared.data.updateStep).toMatchObject({ name: null, appKey: 'formatter', key: 'text' });
    });

    it('refuses invalid fields as a ValidationError naming them, and changes nothing', async () => {
      const flow = await gql.world.newFlow(gql.world.bob.token);
      const tooLong = fieldError(
        await send(gql.world.bob.token, UPDATE_STEP, { input: { id: flow.actionId, key: 'k'.repeat(101) } }),
        'updateStep',
      );
      expect(tooLong).toMatchObject({
        message: 'key: must be at most 100 characters.',
        extensions: { code: 'ValidationError', fields: { key: ['must be at most 100 characters.'] } },
      });
      const notAnObject = fieldError(
        await send(gql.world.bob.token, UPDATE_STEP, { input: { id: flow.actionId, parameters: [1, 2] } }),
        'updateStep',
      );
      expect(notAnObject.extensions).toEqual({
        code: 'ValidationError',
        fields: { parameters: ['must be an object.'] },
      });
      // The use case's own check, reported the same way.
      const unknownApp = fieldError(
        await send(gql.world.bob.token, UPDATE_STEP, { input: { id: flow.actionId, appKey: 'no-such-app' } }),
        'updateStep',
      );
      expect(unknownApp.extensions.code).toBe('ValidationError');
      expect(Object.keys(unknownApp.extensions.fields)).toEqual(['appKey']);
      expect(await restStep(gql.world.bob.token, flow.id, flow.actionId)).toMatchObject({ appKey: null, key: null });
    });

    it('refuses fields the input type does not have before running anything', async () => {
      const flow = await gql.world.newFlow(gql.world.bob.token);
      const input = { id: flow.actionId, continueOnFailure: true };
      const message = requestError(await send(gql.world.bob.token, UPDATE_STEP, { input }));
      expect(message).toContain('Field "continueOnFailure" is not defined by type "UpdateStepInput".');
    });

    it('is NotFoundError for an unknown or malformed id', async () => {
      for (const id of [MISSING_ID, 'not-a-uuid']) {
        const error = fieldError(
          await send(gql.world.bob.token, UPDATE_STEP, { input: { id, name: 'x' } }),
          'updateStep',
        );
        expect(error).toMatchObject({ message: 'Step not found.', extensions: { code: 'NotFoundError' } });
      }
    });

    it("hides another user's step, and refuses it to a role that may read but not manage it", async () => {
      const admins = await gql.world.newFlow(gql.world.adminToken);
      const input = { id: admins.actionId, name: 'Taken over' };
      const hidden = fieldError(await send(gql.world.bob.token, UPDATE_STEP, { input }), 'updateStep');
      expect(hidden.extensions).toEqual({ code: 'NotFoundError' });
      const reader = await gql.world.userWith(READ_ALL_MANAGE_OWN);
      const refused = fieldError(await send(reader.token, UPDATE_STEP, { input }), 'updateStep');
      expect(refused.extensions).toEqual({ code: 'ForbiddenError' });
      expect((await restStep(gql.world.adminToken, admins.id, admins.actionId)).name).not.toBe('Taken over');
    });
  });

  describe('updateUser', () => {
    it('changes the caller’s own name and e-mail as PATCH /users/:userId does', async () => {
      const user = await gql.world.userWith([]);
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
      expect(await gql.world.call('GET', '/users/me', user.token)).toMatchObject({
        fullName: 'Renamed Member',
        email: `renamed-${user.id}@example.com`,
      });
    });

    it('gives timestamps as the decimal text of REST’s milliseconds, as Automatisch’s GraphQL did', async () => {
      const user = await gql.world.userWith([]);
      const res = await send(
        user.token,
        `mutation { updateUser(input: { id: "${user.id}", fullName: "Timed" }) { createdAt updatedAt role { createdAt } } }`,
      );
      expect(res.errors).toBeUndefined();
      const rest = await gql.world.call('GET', '/users/me', user.token);
      expect(res.data.updateUser).toEqual({
        createdAt: String(rest.createdAt),
        updatedAt: String(rest.updatedAt),
        role: { createdAt: String(rest.role.createdAt) },
      });
      expect(res.data.updateUser.createdAt).toMatch(/^\d{13}$/);
    });

    it("refuses another user's account with ForbiddenError, whatever the role", async () => {
      const adminId = (await gql.world.call('GET', '/users/me', gql.world.adminToken)).id;
      const input = { id: adminId, fullName: 'Not Ada' };
      expect(fieldError(await send(gql.world.bob.token, UPDATE_USER, { input }), 'updateUser')).toMatchObject({
        message: 'You can only change your own account.',
        extensions: { code: 'ForbiddenError' },
      });
      expect(
        fieldError(await send(gql.world.adminToken, UPDATE_USER, { input: { id: gql.world.bob.id } }), 'updateUser')
          .extensions,
      ).toEqual({
        code: 'ForbiddenError',
      });
      expect((await gql.world.call('GET', '/users/me', gql.world.adminToken)).fullName).not.toBe('Not Ada');
    });

    it('answers a taken e-mail and a malformed one as REST does', async () => {
      const user = await gql.world.userWith([]);
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
      const roleId = (await gql.world.call('GET', '/users/me', gql.world.adminToken)).roleId;
      const message = requestError(
        await send(gql.world.bob.token, UPDATE_USER, { input: { id: gql.world.bob.id, roleId } }),
      );
      expect(message).toContain('Field "roleId" is not defined by type "UpdateUserInput".');
      expect((await gql.world.call('GET', '/users/me', gql.world.bob.token)).role.isAdmin).toBe(false);
    });
  });

  describe('verifyConnection', () => {
    it('checks the credentials with the app and answers the verified connection, without secrets', async () => {
      const id = (
        await gql.world.call('POST', '/apps/test-notes/connections', gql.world.bob.token, {
          formattedData: NOTES_CREDENTIALS,
        })
      ).id;
      const res = await send(gql.world.bob.token, VERIFY_CONNECTION, { input: { id } });
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
      const id = (await gql.world.call('POST', '/apps/test-notes/connections', gql.world.bob.token, { formattedData }))
        .id;
      const error = fieldError(
        await send(gql.world.bob.token, VERIFY_CONNECTION, { input: { id } }),
        'verifyConnection',
      );
      expect(error).toMatchObject({ extensions: { code: 'ConnectionVerificationError' } });
      expect(error.message).toContain('The key was refused.');
    });

    it("is NotFoundError for an unknown connection and for another user's", async () => {
      const admins = await gql.world.newNotesConnection(gql.world.adminToken);
      for (const id of [MISSING_ID, admins]) {
        const error = fieldError(
          await send(gql.world.bob.token, VERIFY_CONNECTION, { input: { id } }),
          'verifyConnection',
        );
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
        expect(fieldError(await send(gql.world.bob.token, document, variables), field)).toMatchObject({
          message: 'input: is required.',
          extensions: { code: 'ValidationError', fields: { input: ['is required.'] } },
        });
      }
      const inline = await send(gql.world.bob.token, `mutation { ${field} { __typename } }`);
      expect(fieldError(inline, field).extensions.code).toBe('ValidationError');
    });
  });
});
