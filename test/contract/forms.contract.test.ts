import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VersionStep } from '../../core/domain/flow-version.js';
import type { FormDefinition } from '../../core/domain/form.js';
import { DIALECTS } from '../support/databases.js';
import { at, insertUser, MINUTE, openFixture, type PersistenceFixture, T0 } from './persistence-fixture.js';

const DEFINITION: FormDefinition = {
  name: 'Contact',
  displayName: 'Contact us',
  description: 'We answer within a day.',
  responseMessage: 'Thanks!',
  submitButtonText: 'Send',
  fields: [
    { name: 'Email', key: 'email', type: 'string', required: true, validationFormat: 'email' },
    {
      name: 'Guests',
      key: 'guests',
      type: 'array',
      minItems: 1,
      fields: [{ name: 'Name', key: 'name', type: 'string', options: [{ value: '' }] }],
    },
  ],
};

describe.each(DIALECTS)('form repository contract (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let alice: string;
  let bob: string;
  beforeEach(async () => {
    fx = await openFixture(dialect);
    alice = await insertUser(fx.repos);
    bob = await insertUser(fx.repos);
  });
  afterEach(() => fx.close());

  const newForm = (userId: string, now = T0, over: Partial<FormDefinition> = {}) =>
    fx.repos.forms.insert({ ...DEFINITION, ...over, id: randomUUID(), userId, now });

  it('stores a form with its fields as given, and reads it back', async () => {
    const form = await newForm(alice);
    expect(form).toEqual({ ...DEFINITION, id: form.id, userId: alice, createdAt: T0, updatedAt: T0 });
    expect(await fx.repos.forms.findById(form.id)).toEqual(form);
    expect(await fx.repos.forms.findById(randomUUID())).toBeNull();
  });

  it('lists a user’s forms newest first, and only theirs', async () => {
    const first = await newForm(alice, at(MINUTE));
    const second = await newForm(alice, at(2 * MINUTE));
    await newForm(bob);
    expect((await fx.repos.forms.listByUser(alice)).map((f) => f.id)).toEqual([second.id, first.id]);
    expect(await fx.repos.forms.listByUser(randomUUID())).toEqual([]);
  });

  it('changes only what it is told, and deletes', async () => {
    const form = await newForm(alice);
    await fx.repos.forms.update(form.id, { name: 'Renamed', description: null, fields: [] }, at(MINUTE));
    expect(await fx.repos.forms.findById(form.id)).toEqual({
      ...form,
      name: 'Renamed',
      description: null,
      fields: [],
      updatedAt: at(MINUTE),
    });
    await fx.repos.forms.delete(form.id);
    expect(await fx.repos.forms.findById(form.id)).toBeNull();
  });

  it('finds no form of a removed account', async () => {
    const form = await newForm(alice);
    await fx.repos.users.softDelete(alice, at(MINUTE));
    expect(await fx.repos.forms.findById(form.id)).toBeNull();
  });
});

describe.each(DIALECTS)('flows listed by their trigger’s app (%s)', (dialect) => {
  let fx: PersistenceFixture;
  let alice: string;
  beforeEach(async () => {
    fx = await openFixture(dialect);
    alice = await insertUser(fx.repos);
  });
  afterEach(() => fx.close());

  const trigger = (appKey: string): VersionStep => ({
    id: randomUUID(),
    type: 'trigger',
    appKey,
    key: 'newFormSubmission',
    name: null,
    position: 1,
    status: 'completed',
    parameters: { formId: 'f' },
    connectionId: null,
    appVersion: 1,
    continueOnFailure: false,
    structuralType: 'single',
    parentStepId: null,
    branchConditions: null,
  });

  /** A flow of the user with a draft trigger of `draftApp`, published with one of `publishedApp`. */
  const flow = async (userId: string, draftApp: string | null, publishedApp: string | null, minute: number) => {
    const id = randomUUID();
    await fx.repos.flows.insert({ id, userId, name: 'Flow', folderId: null, now: at(minute * MINUTE) });
    await fx.repos.steps.insert([
      {
        id: randomUUID(),
        flowId: id,
        position: 1,
        type: 'trigger',
        appKey: draftApp,
        key: draftApp ? 'newFormSubmission' : null,
        name: null,
        parameters: {},
        connectionId: null,
        status: 'incomplete',
        appVersion: null,
        now: T0,
      },
    ]);
    if (publishedApp) {
      const versionId = randomUUID();
      await fx.repos.flowVersions.insert({
        id: versionId,
        flowId: id,
        number: 1,
        message: null,
        publishedBy: userId,
        name: 'Flow',
        steps: [trigger(publishedApp)],
        createdAt: T0,
      });
      await fx.repos.flows.update(id, { active: true, publishedVersion: { id: versionId, number: 1 } }, T0);
    }
    return id;
  };

  it('finds the owner’s flows whose draft or published trigger is of the app, oldest first', async () => {
    const draftOnly = await flow(alice, 'forms', null, 1);
    const publishedOnly = await flow(alice, 'webhook', 'forms', 2);
    const both = await flow(alice, 'forms', 'forms', 3);
    await flow(alice, 'webhook', 'webhook', 4);
    await flow(alice, null, null, 5);
    const bob = await insertUser(fx.repos);
    await flow(bob, 'forms', 'forms', 6);
    expect(await fx.repos.flows.listTriggeredByApp(alice, 'forms')).toEqual([draftOnly, publishedOnly, both]);
    expect(await fx.repos.flows.listTriggeredByApp(alice, 'nothing')).toEqual([]);
    await fx.repos.users.softDelete(alice, T0);
    expect(await fx.repos.flows.listTriggeredByApp(alice, 'forms')).toEqual([]);
  });
});
