import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, runAppTrigger, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { intercom } from '../../adapters/apps/intercom/index.js';
import { type FakeIntercom, INTERCOM_TOKEN, startFakeIntercom } from './support/intercom-fake.js';
import { rateLimitedOutcome } from './support/rate-limited-outcome.js';

let fake: FakeIntercom;
const auth = { accessToken: INTERCOM_TOKEN, region: 'us' };
const call = () => ({ auth, baseUrl: fake.vendor.url });

beforeAll(async () => {
  fake = await startFakeIntercom();
});
afterAll(() => fake.vendor.close());
afterEach(() => {
  fake.limits.page = 150;
});

const act = (key: string, parameters: Record<string, unknown>) =>
  runAppAction(intercom, key, { ...call(), parameters });
const lastCall = (route: string) => fake.vendor.calls(route).at(-1);

describe('intercom: connection', () => {
  it('sends the token as Bearer with the API version, and names the admin and workspace', async () => {
    expect(await verifyAppAuth(intercom, auth, { baseUrl: fake.vendor.url })).toMatchObject({
      ok: true,
      screenName: 'Ann Admin @ Acme',
    });
    const sent = lastCall('GET /me');
    expect(sent?.headers.authorization).toBe(`Bearer ${INTERCOM_TOKEN}`);
    expect(sent?.headers['intercom-version']).toBe('2.11');
  });

  it("refuses a wrong token with Intercom's words", async () => {
    const check = await verifyAppAuth(
      intercom,
      { accessToken: 'bad-token-77', region: 'us' },
      { baseUrl: fake.vendor.url },
    );
    expect(check).toEqual({ ok: false, reason: `GET ${fake.vendor.url}/me answered 401: Access Token Invalid` });
  });

  it("reaches a European or Australian workspace at its region's host", () => {
    const connection = (region: string) => ({ data: { accessToken: 't', region }, client: null, set: async () => {} });
    expect(intercom.http.connectionBaseUrl?.(connection('eu'))).toBe('https://api.eu.intercom.io');
    expect(intercom.http.connectionBaseUrl?.(connection('au'))).toBe('https://api.au.intercom.io');
    expect(intercom.http.connectionBaseUrl?.(connection('us'))).toBeUndefined();
    expect(intercom.http.baseUrl).toBe('https://api.intercom.io');
  });
});

describe('intercom: polling triggers', () => {
  it('newContacts: a search of contacts sorted newest first, by role when asked', async () => {
    const all = await runAppTrigger(intercom, 'newContacts', { ...call(), parameters: {} });
    expect(all.map((i) => i.id)).toEqual(['c2', 'c3', 'c1']);
    expect(lastCall('POST /contacts/search')?.body).toEqual({
      query: { field: 'created_at', operator: '>', value: 0 },
      sort: { field: 'created_at', order: 'descending' },
      pagination: { per_page: 50 },
    });
    const leads = await runAppTrigger(intercom, 'newContacts', { ...call(), parameters: { role: 'lead' } });
    expect(leads.map((i) => i.id)).toEqual(['c2']);
  });

  it('newConversations: newest first', async () => {
    const items = await runAppTrigger(intercom, 'newConversations', { ...call(), parameters: {} });
    expect(items.map((i) => i.id)).toEqual(['902', '901']);
    expect(items[0]?.data).toMatchObject({ type: 'conversation', state: 'open' });
  });
});

describe('intercom: actions', () => {
  it('createContact sends the contact with its custom attributes; a duplicate is refused', async () => {
    const output = await act('createContact', {
      role: 'user',
      email: 'dee@example.com',
      name: 'Dee',
      customAttributes: [{ key: 'plan', value: 'pro' }],
    });
    expect(output).toMatchObject({ id: 'c4', email: 'dee@example.com' });
    expect(lastCall('POST /contacts')?.body).toEqual({
      role: 'user',
      email: 'dee@example.com',
      name: 'Dee',
      custom_attributes: { plan: 'pro' },
    });
    await expect(act('createContact', { email: 'ann@example.com' })).rejects.toThrow(
      /answered 409: A contact matching those details already exists/,
    );
  });

  it('updateContact and addTagToContact', async () => {
    expect(await act('updateContact', { contactId: 'c1', phone: '+1 555' })).toMatchObject({
      id: 'c1',
      phone: '+1 555',
    });
    expect(lastCall('PUT /contacts/:id')?.body).toEqual({ phone: '+1 555' });
    expect(await act('addTagToContact', { contactId: 'c1', tagId: 'tag-1' })).toEqual({
      type: 'tag',
      id: 'tag-1',
      name: 'VIP',
    });
    await expect(act('addTagToContact', { contactId: 'c9', tagId: 'tag-1' })).rejects.toThrow(
      /answered 404: User Not Found/,
    );
  });

  it('sendMessage: an e-mail from a teammate to a contact, which needs a subject', async () => {
    const output = await act('sendMessage', {
      adminId: 'a1',
      contactId: 'c1',
      messageType: 'email',
      subject: 'Welcome',
      body: 'Hello Ann',
    });
    expect(output).toMatchObject({ type: 'user_message', id: 'm1' });
    expect(lastCall('POST /messages')?.body).toEqual({
      message_type: 'email',
      subject: 'Welcome',
      body: 'Hello Ann',
      template: 'plain',
      from: { type: 'admin', id: 'a1' },
      to: { type: 'user', id: 'c1' },
    });
    await expect(
      act('sendMessage', { adminId: 'a1', contactId: 'c1', messageType: 'email', body: 'x' }),
    ).rejects.toMatchObject({ fields: { subject: ['is required for an e-mail.'] } });
  });

  it('replyToConversation replies as the teammate, or notes', async () => {
    await act('replyToConversation', { conversationId: '901', adminId: 'a1', messageType: 'note', body: 'Internal' });
    expect(lastCall('POST /conversations/:id/reply')?.body).toEqual({
      message_type: 'note',
      type: 'admin',
      admin_id: 'a1',
      body: 'Internal',
    });
    await expect(act('replyToConversation', { conversationId: '999', adminId: 'a1', body: 'x' })).rejects.toThrow(
      /answered 404: Resource Not Found/,
    );
  });

  it('turns a 429 into a retryable failure', async () => {
    const outcome = await rateLimitedOutcome(intercom, fake.vendor, {
      key: 'addTagToContact',
      parameters: { contactId: 'c1', tagId: 'tag-1' },
      credentials: auth,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true } });
  });
});

describe('intercom: dynamic data', () => {
  it('follows the contacts cursor through every page; lists admins and tags', async () => {
    fake.limits.page = 2;
    expect(await loadAppDynamicData(intercom, 'listContacts', call())).toEqual([
      { name: 'Ann', value: 'c1' },
      { name: 'c2', value: 'c2' },
      { name: 'Cy', value: 'c3' },
    ]);
    expect(
      fake.vendor
        .calls('GET /contacts')
        .slice(-2)
        .map((r) => r.query.starting_after),
    ).toEqual([undefined, '2']);
    expect(await loadAppDynamicData(intercom, 'listAdmins', call())).toEqual([
      { name: 'Ann Admin (ann@acme.test)', value: 'a1' },
      { name: 'Operator', value: 'a2' },
    ]);
    expect(await loadAppDynamicData(intercom, 'listTags', call())).toEqual([{ name: 'VIP', value: 'tag-1' }]);
  });
});
