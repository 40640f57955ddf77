import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppTrigger,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { WebhookRefusedError, WebhookReplyRequested } from '../../adapters/apps/sdk/index.js';
import { trello } from '../../adapters/apps/trello/index.js';
import { type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';
import { rateLimitedOutcome } from './support/rate-limited-outcome.js';

const AUTH = { apiKey: 'key-123', token: 'tok-456' };
const HEADER = 'OAuth oauth_consumer_key="key-123", oauth_token="tok-456"';

/** A Trello id: its creation time in seconds as eight hex digits, then a counter. */
const trelloId = (seconds: number, n: number) =>
  `${seconds.toString(16).padStart(8, '0')}${String(n).padStart(16, '0')}`;

const CARDS = [
  { id: trelloId(1_700_000_100, 1), name: 'Middle', idList: 'l1' },
  { id: trelloId(1_700_000_200, 2), name: 'Newest', idList: 'l2' },
  { id: trelloId(1_700_000_000, 3), name: 'Oldest', idList: 'l1' },
];

/** Trello's API as documented: its header, its plain-text errors, boards' lists, labels and actions. */
const startTrello = () =>
  startFakeVendor({
    authorize: (req) => req.headers.authorization === HEADER,
    unauthorized: reply(401, 'invalid token'),
    routes: {
      'GET /members/me': () => ({ id: 'm1', username: 'ann', fullName: 'Ann Lee', email: 'ann@example.com' }),
      'GET /members/me/boards': () => [
        { id: 'b1', name: 'Roadmap' },
        { id: 'b2', name: 'Support' },
      ],
      'GET /boards/:id/lists': () => [
        { id: 'l1', name: 'To do' },
        { id: 'l2', name: 'Done' },
      ],
      'GET /boards/:id/labels': () => [
        { id: 'g1', name: 'Bug', color: 'red' },
        { id: 'g2', name: '', color: 'green' },
      ],
      'GET /boards/:id/members': () => [{ id: 'm1', fullName: 'Ann Lee', username: 'ann' }],
      'GET /boards/:id/cards': () => CARDS,
      'GET /lists/:id/cards': (req) => CARDS.filter((card) => card.idList === req.params.id),
      'GET /boards/:id/actions': (req) =>
        req.query.filter === 'commentCard'
          ? [
              { id: 'a2', type: 'commentCard', data: { text: 'Second' } },
              { id: 'a1', type: 'commentCard', data: { text: 'First' } },
            ]
          : [
              { id: 'a4', type: 'updateCard', data: { listAfter: { id: 'l2' }, listBefore: { id: 'l1' } } },
              { id: 'a3', type: 'updateCard', data: { listAfter: { id: 'l1' }, listBefore: { id: 'l2' } } },
            ],
      'POST /cards': (req) => {
        const body = req.body as { idList?: string };
        if (body.idList === 'nope') return reply(400, 'invalid value for idList');
        return { id: 'c9', ...(req.body as object) };
      },
      'PUT /cards/:id': (req) => ({ id: req.params.id, ...(req.body as object) }),
      'POST /webhooks': (req) => ({ id: 'wh-9', active: true, ...(req.body as object) }),
      'DELETE /webhooks/:id': () => ({ _value: null }),
      'POST /cards/:id/actions/comments': (req) => ({
        id: 'a9',
        type: 'commentCard',
        data: { text: req.query.text, card: { id: req.params.id } },
      }),
    },
  });

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startTrello();
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({ auth: AUTH, baseUrl: vendor.url, parameters });

describe('trello: connection', () => {
  it("sends the key and token in Trello's header and names the member", async () => {
    expect(await verifyAppAuth(trello, AUTH, { baseUrl: vendor.url })).toMatchObject({
      ok: true,
      screenName: 'ann @ ann@example.com',
    });
    expect(vendor.calls('GET /members/me').at(-1)?.query).toEqual({ fields: 'username,fullName,email' });
  });

  it("is refused with Trello's words, never showing the token", async () => {
    const refused = await verifyAppAuth(trello, { ...AUTH, token: 'wrong-token' }, { baseUrl: vendor.url });
    expect(refused).toEqual({ ok: false, reason: expect.stringContaining('401: invalid token') });
    expect(JSON.stringify(refused)).not.toContain('wrong-token');
  });
});

describe("trello: Automatisch's keys", () => {
  it('keeps the app, connection, action and dynamic data keys', () => {
    expect(trello.key).toBe('trello');
    expect(trello.manifest.auth.fields.map((field) => field.key)).toEqual(['apiKey', 'token', 'apiSecret']);
    const createCard = trello.manifest.actions.find((action) => action.key === 'createCard');
    expect(createCard?.arguments.map((argument) => argument.key)).toEqual([
      'boardId',
      'listId',
      'name',
      'description',
      'label',
      'cardPosition',
      'memberIds',
      'dueDate',
      'urlSource',
    ]);
    expect(Object.keys(trello.dynamicData)).toEqual(
      expect.arrayContaining(['listBoardLabels', 'listBoardLists', 'listBoards', 'listMembers']),
    );
  });
});

describe('trello: actions', () => {
  it('creates a card from Automatisch-shaped parameters and answers it', async () => {
    const card = await runAppAction(
      trello,
      'createCard',
      call({
        boardId: 'b1',
        listId: 'l1',
        name: 'Ship it',
        description: 'Soon',
        label: 'g1',
        cardPosition: 'top',
        memberIds: [{ memberId: 'm1' }, { memberId: '' }],
        dueDate: '2025-06-30',
        urlSource: 'https://example.com/spec',
      }),
    );
    expect(vendor.calls('POST /cards').at(-1)?.body).toEqual({
      idList: 'l1',
      name: 'Ship it',
      desc: 'Soon',
      pos: 'top',
      due: '2025-06-30',
      idMembers: ['m1'],
      idLabels: ['g1'],
      urlSource: 'https://example.com/spec',
    });
    expect(card).toMatchObject({ id: 'c9', name: 'Ship it' });
  });

  it('leaves out what was not given', async () => {
    await runAppAction(trello, 'createCard', call({ boardId: 'b1', listId: 'l1', name: 'Bare' }));
    expect(vendor.calls('POST /cards').at(-1)?.body).toEqual({ idList: 'l1', name: 'Bare' });
  });

  it("fails with Trello's message when it refuses the card", async () => {
    await expect(
      runAppAction(trello, 'createCard', call({ boardId: 'b1', listId: 'nope', name: 'X' })),
    ).rejects.toThrow(/400: invalid value for idList/);
  });

  it('moves a card to another list', async () => {
    const moved = await runAppAction(trello, 'moveCard', call({ cardId: 'c/1', boardId: 'b2', listId: 'l2' }));
    const sent = vendor.calls('PUT /cards/:id').at(-1);
    expect(sent?.path).toBe('/cards/c%2F1');
    expect(sent?.body).toEqual({ idBoard: 'b2', idList: 'l2' });
    expect(moved).toEqual({ id: 'c/1', idBoard: 'b2', idList: 'l2' });
  });

  it('comments on a card', async () => {
    const comment = await runAppAction(trello, 'addCommentToCard', call({ cardId: 'c1', text: 'Looks good' }));
    expect(vendor.calls('POST /cards/:id/actions/comments').at(-1)?.query).toEqual({ text: 'Looks good' });
    expect(comment).toMatchObject({ id: 'a9', data: { text: 'Looks good', card: { id: 'c1' } } });
  });

  it("turns Trello's rate limit into a retryable failure", async () => {
    const outcome = await rateLimitedOutcome(trello, vendor, {
      key: 'addCommentToCard',
      parameters: { cardId: 'c1', text: 'Hi' },
      credentials: AUTH,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('trello: polling triggers', () => {
  it('hands new cards newest first, by the time in their ids', async () => {
    const items = await runAppTrigger(trello, 'newCard', call({ boardId: 'b1' }));
    expect(items.map((item) => (item.data as { name: string }).name)).toEqual(['Newest', 'Middle', 'Oldest']);
    expect(items.map((item) => item.id)).toEqual([CARDS[1]?.id, CARDS[0]?.id, CARDS[2]?.id]);
    const inList = await runAppTrigger(trello, 'newCard', call({ boardId: 'b1', listId: 'l1' }));
    expect(inList.map((item) => (item.data as { name: string }).name)).toEqual(['Middle', 'Oldest']);
    expect(vendor.calls('GET /lists/:id/cards').at(-1)?.path).toBe('/lists/l1/cards');
  });

  it("hands a board's comments as Trello lists them, newest first", async () => {
    const items = await runAppTrigger(trello, 'newComment', call({ boardId: 'b1' }));
    expect(items.map((item) => item.id)).toEqual(['a2', 'a1']);
    expect(vendor.calls('GET /boards/:id/actions').at(-1)?.query).toEqual({ filter: 'commentCard', limit: '50' });
  });

  it('hands cards moved between lists, or only those moved to the list chosen', async () => {
    const all = await runAppTrigger(trello, 'cardMovedToList', call({ boardId: 'b1' }));
    expect(all.map((item) => item.id)).toEqual(['a4', 'a3']);
    expect(vendor.calls('GET /boards/:id/actions').at(-1)?.query.filter).toBe('updateCard:idList');
    const toDone = await runAppTrigger(trello, 'cardMovedToList', call({ boardId: 'b1', listId: 'l2' }));
    expect(toDone.map((item) => item.id)).toEqual(['a4']);
  });
});

describe('trello: dynamic data', () => {
  it("lists the member's open boards, and a board's lists, labels and members", async () => {
    expect(await loadAppDynamicData(trello, 'listBoards', call())).toEqual([
      { name: 'Roadmap', value: 'b1' },
      { name: 'Support', value: 'b2' },
    ]);
    expect(vendor.calls('GET /members/me/boards').at(-1)?.query).toEqual({ filter: 'open', fields: 'name' });
    expect(await loadAppDynamicData(trello, 'listBoardLists', call({ boardId: 'b1' }))).toEqual([
      { name: 'To do', value: 'l1' },
      { name: 'Done', value: 'l2' },
    ]);
    expect(await loadAppDynamicData(trello, 'listBoardLabels', call({ boardId: 'b1' }))).toEqual([
      { name: 'Bug', value: 'g1' },
      { name: 'green', value: 'g2' },
    ]);
    expect(await loadAppDynamicData(trello, 'listMembers', call({ boardId: 'b1' }))).toEqual([
      { name: 'Ann Lee', value: 'm1' },
    ]);
  });

  it('lists nothing of a board before one is chosen', async () => {
    const before = vendor.requests.length;
    expect(await loadAppDynamicData(trello, 'listBoardLists', call())).toEqual([]);
    expect(vendor.requests.length).toBe(before);
  });
});

const SECRET = 'power-up-secret';
const CALLBACK = 'https://conveyor.example/webhooks/flows/f-1';
const HOOK = { id: 'wh-9', callbackUrl: CALLBACK };
const withSecret = (parameters: Record<string, unknown>) => ({
  auth: { ...AUTH, apiSecret: SECRET },
  baseUrl: vendor.url,
  parameters,
});

/** A delivery as Trello sends it: signed with the secret over the body and the callback address. */
const delivery = (body: object, secret = SECRET) => {
  const rawBody = JSON.stringify(body);
  const signature = createHmac('sha1', secret)
    .update(rawBody + CALLBACK)
    .digest('base64');
  return { method: 'POST', headers: { 'x-trello-webhook': signature }, query: {}, body, rawBody };
};

describe('trello: instant trigger', () => {
  it("registers a webhook on the board for the flow's address, and needs the secret to check deliveries", async () => {
    const hook = await registerAppHook(trello, 'newActivity', {
      ...withSecret({ boardId: 'b1' }),
      webhookUrl: CALLBACK,
    });
    expect(hook).toEqual(HOOK);
    expect(vendor.calls('POST /webhooks').at(-1)?.body).toEqual({
      callbackURL: CALLBACK,
      idModel: 'b1',
      description: 'Conveyor flow',
    });
    await expect(
      registerAppHook(trello, 'newActivity', { ...call({ boardId: 'b1' }), webhookUrl: CALLBACK }),
    ).rejects.toThrow(/need the Power-Up's secret/);
  });

  it('deletes the webhook on unpublish', async () => {
    await unregisterAppHook(trello, 'newActivity', {
      ...withSecret({ boardId: 'b1' }),
      webhookUrl: CALLBACK,
      hook: HOOK,
    });
    expect(vendor.calls('DELETE /webhooks/:id').at(-1)?.path).toBe('/webhooks/wh-9');
  });

  it("answers Trello's HEAD check, and hands a signed action of the type chosen", async () => {
    const check = runAppTrigger(trello, 'newActivity', {
      ...withSecret({ boardId: 'b1' }),
      webhook: { method: 'HEAD', headers: {}, query: {}, body: null, rawBody: '' },
      hook: HOOK,
    });
    await expect(check).rejects.toBeInstanceOf(WebhookReplyRequested);
    const comment = { action: { id: 'act-1', type: 'commentCard', data: { text: 'Hi' } }, model: { id: 'b1' } };
    expect(
      await runAppTrigger(trello, 'newActivity', {
        ...withSecret({ boardId: 'b1' }),
        webhook: delivery(comment),
        hook: HOOK,
      }),
    ).toEqual([{ id: 'act-1', data: comment }]);
    const onlyCards = withSecret({ boardId: 'b1', actionType: 'createCard' });
    expect(
      await runAppTrigger(trello, 'newActivity', { ...onlyCards, webhook: delivery(comment), hook: HOOK }),
    ).toEqual([]);
  });

  it('refuses a delivery signed with another secret, or for another address', async () => {
    const body = { action: { id: 'act-2', type: 'createCard' } };
    await expect(
      runAppTrigger(trello, 'newActivity', {
        ...withSecret({ boardId: 'b1' }),
        webhook: delivery(body, 'guess'),
        hook: HOOK,
      }),
    ).rejects.toBeInstanceOf(WebhookRefusedError);
    await expect(
      runAppTrigger(trello, 'newActivity', {
        ...withSecret({ boardId: 'b1' }),
        webhook: delivery(body),
        hook: { ...HOOK, callbackUrl: 'https://elsewhere.example/hook' },
      }),
    ).rejects.toBeInstanceOf(WebhookRefusedError);
  });
});
