import { defineTrigger, paginate } from '../sdk/index.js';

interface Contact {
  readonly id: string;
  readonly created_at?: string;
}

export const newContact = defineTrigger({
  key: 'newContact',
  name: 'New contact',
  description: 'Starts the flow when a marketing contact is added.',
  type: 'polling',
  arguments: {},
  async run(ctx) {
    // SendGrid samples the 50 contacts added last (sorted by address): newest first here.
    const { data } = await ctx.http.request<{ result?: readonly Contact[] }>({ path: '/marketing/contacts' });
    return [...(data.result ?? [])]
      .sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? ''))
      .map((contact) => ({ id: contact.id, data: contact }));
  },
});

interface Bounce {
  readonly created: number;
  readonly email: string;
}

const PAGE = 500;
/** The first poll looks a week back; later ones from a day before the previous one began. */
const FIRST_LOOK_BACK_S = 7 * 24 * 3600;
const LOOK_BACK_S = 24 * 3600;

export const newBounce = defineTrigger({
  key: 'newBounce',
  name: 'New bounce',
  description: 'Starts the flow when an e-mail to an address bounces (the address is then suppressed).',
  type: 'polling',
  arguments: {},
  async run(ctx) {
    const now = Math.floor(Date.now() / 1000);
    const since = await ctx.store.get('sendgrid:bounces');
    const bounces = await paginate<Bounce>(
      ctx.http,
      {
        path: '/suppression/bounces',
        query: { start_time: typeof since === 'number' ? since : now - FIRST_LOOK_BACK_S, limit: PAGE },
      },
      { kind: 'offset', items: (data: readonly Bounce[]) => data, param: 'offset', pageSize: PAGE },
      { maxItems: 10_000 },
    );
    await ctx.store.set('sendgrid:bounces', now - LOOK_BACK_S);
    // An address bounces again after it is removed from the list: its time tells the bounces apart.
    return [...bounces]
      .sort((a, b) => b.created - a.created)
      .map((bounce) => ({ id: `${bounce.email}:${bounce.created}`, data: bounce }));
  },
});
