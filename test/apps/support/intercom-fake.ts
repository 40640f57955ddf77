import { type FakeRequest, reply, startFakeVendor } from '../../support/fake-vendor.js';

/**
 * Intercom's REST API as its reference shows it: a `Bearer` access token, `Intercom-Version`,
 * searches as POSTs with a query, a sort and `pagination` in the body, the contacts list's cursor
 * (`pages.next.starting_after`), and `{ type: "error.list", errors: [{ code, message }] }` refusals.
 */

export const INTERCOM_TOKEN = 'dG9rOmludGVyY29tLXRlc3Q=';

const errorList = (status: number, code: string, message: string) =>
  reply(status, { type: 'error.list', request_id: 'req-1', errors: [{ code, message }] });

export const startFakeIntercom = async () => {
  const limits = { page: 150 };
  const contacts = [
    { type: 'contact', id: 'c1', role: 'user', email: 'ann@example.com', name: 'Ann', created_at: 1_700_000_100 },
    { type: 'contact', id: 'c2', role: 'lead', email: null, name: null, created_at: 1_700_000_300 },
    { type: 'contact', id: 'c3', role: 'user', email: 'cy@example.com', name: 'Cy', created_at: 1_700_000_200 },
  ];
  const conversations = [
    { type: 'conversation', id: '901', created_at: 1_700_000_500, state: 'open' },
    { type: 'conversation', id: '902', created_at: 1_700_000_600, state: 'open' },
  ];

  /** What a search body asks of contacts: any, or one role (`AND` of conditions). */
  const matches = (query: any, contact: (typeof contacts)[number]): boolean => {
    if (query?.operator === 'AND') return (query.value as unknown[]).every((part) => matches(part, contact));
    if (query?.field === 'role') return contact.role === query.value;
    if (query?.field === 'created_at' && query.operator === '>') return contact.created_at > query.value;
    return false;
  };
  const sorted = <T extends { created_at: number }>(items: readonly T[], body: any) =>
    body?.sort?.field === 'created_at' && body.sort.order === 'descending'
      ? [...items].sort((a, b) => b.created_at - a.created_at)
      : [...items];

  const known = (req: FakeRequest) => contacts.find((c) => c.id === req.params.id);
  const noContact = errorList(404, 'not_found', 'User Not Found');

  const vendor = await startFakeVendor({
    authorize: (req) => req.headers.authorization === `Bearer ${INTERCOM_TOKEN}`,
    unauthorized: errorList(401, 'unauthorized', 'Access Token Invalid'),
    rateLimited: errorList(429, 'rate_limit_exceeded', 'Rate Limit Exceeded'),
    routes: {
      'GET /me': () => ({ type: 'admin', id: 'a1', name: 'Ann Admin', email: 'ann@acme.test', app: { name: 'Acme' } }),
      'GET /admins': () => ({
        type: 'admin.list',
        admins: [
          { type: 'admin', id: 'a1', name: 'Ann Admin', email: 'ann@acme.test' },
          { type: 'admin', id: 'a2', name: 'Operator' },
        ],
      }),
      'GET /tags': () => ({ type: 'list', data: [{ type: 'tag', id: 'tag-1', name: 'VIP' }] }),
      'GET /contacts': (req) => {
        const size = Math.min(Number(req.query.per_page ?? 50), limits.page);
        const start = Number(req.query.starting_after ?? 0);
        const end = start + size;
        return {
          type: 'list',
          data: contacts.slice(start, end),
          pages: {
            type: 'pages',
            per_page: size,
            ...(end < contacts.length && { next: { starting_after: String(end) } }),
          },
        };
      },
      'POST /contacts/search': (req) => {
        const body = req.body as { query: unknown };
        const found = sorted(
          contacts.filter((c) => matches(body.query, c)),
          body,
        );
        return { type: 'list', data: found, total_count: found.length, pages: { type: 'pages', page: 1 } };
      },
      'POST /conversations/search': (req) => ({
        type: 'conversation.list',
        conversations: sorted(conversations, req.body),
        total_count: conversations.length,
      }),
      'POST /contacts': (req) => {
        const body = req.body as { email?: string };
        if (body.email === 'ann@example.com')
          return errorList(409, 'conflict', 'A contact matching those details already exists with id=c1');
        return { type: 'contact', id: 'c4', created_at: 1_700_000_900, ...body };
      },
      'PUT /contacts/:id': (req) => (known(req) ? { ...known(req), ...(req.body as object) } : noContact),
      'POST /contacts/:id/tags': (req) => {
        if (!known(req)) return noContact;
        const { id } = req.body as { id: string };
        return id === 'tag-1' ? { type: 'tag', id, name: 'VIP' } : errorList(404, 'tag_not_found', 'Tag not found');
      },
      'POST /messages': (req) => ({ type: 'user_message', id: 'm1', ...(req.body as object) }),
      'POST /conversations/:id/reply': (req) =>
        conversations.some((c) => c.id === req.params.id)
          ? { type: 'conversation', id: req.params.id, conversation_parts: { conversation_parts: [req.body] } }
          : errorList(404, 'not_found', 'Resource Not Found'),
    },
  });
  return { vendor, limits };
};

export type FakeIntercom = Awaited<ReturnType<typeof startFakeIntercom>>;
