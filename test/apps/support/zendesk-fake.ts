import { createHmac } from 'node:crypto';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../../support/fake-vendor.js';

/**
 * A Zendesk account (`/oauth/...` and `/api/v2/...`) as Zendesk documents it: its OAuth client's
 * token endpoint, `Bearer` tokens, cursor pagination (`page[size]`, `page[after]`, `meta.has_more`)
 * and numbered pages (`next_page`) for brands, `Idempotency-Key` on ticket creation, webhooks whose
 * signing secret Zendesk chooses, and `{ error, description, details }` refusals.
 */

export const ZENDESK_CLIENT = { clientId: 'conveyor_zd', clientSecret: 'zd-client-secret' };

export const startFakeZendesk = async () => {
  const codes = new Set<string>();
  const tokens = new Set<string>();
  const refreshTokens = new Set<string>();
  let issued = 0;
  const limits = { page: 100 };
  const named = (prefix: string, field: string, count: number) =>
    Array.from({ length: count }, (_, i) => ({ id: 100 + i, [field]: `${prefix} ${i + 1}` }));
  const data = {
    users: [
      { id: 11, name: 'Ann Agent', role: 'agent' },
      { id: 12, name: 'Bo Admin', role: 'admin' },
      { id: 13, name: 'Cy Agent', role: 'agent' },
    ],
    groups: named('Group', 'name', 3),
    organizations: named('Org', 'name', 2),
    views: named('View', 'title', 3),
    brands: named('Brand', 'name', 3),
    tickets: [1, 2, 3].map((id) => ({ id, subject: `Ticket ${id}`, status: 'open' })),
  };
  /** Tickets created, by idempotency key: Zendesk answers the same ticket for a key it has seen. */
  const byKey = new Map<string, unknown>();
  const webhooks = new Map<string, { endpoint: string; subscriptions: string[]; secret: string }>();
  const notFound = reply(404, { error: 'RecordNotFound', description: 'Not found' });

  /** Cursor pagination: the cursor is the next index, as text. */
  const cursorPage = (req: FakeRequest, vendor: FakeVendor, key: string, items: readonly unknown[]) => {
    const size = Math.min(Number(req.query['page[size]'] ?? 100), limits.page);
    const start = Number(req.query['page[after]'] ?? 0);
    const more = start + size < items.length;
    return {
      [key]: items.slice(start, start + size),
      meta: { has_more: more, after_cursor: more ? String(start + size) : null, before_cursor: null },
      links: { next: more ? `${vendor.url}${req.path}?page[after]=${start + size}` : null, prev: null },
    };
  };

  const token = (req: FakeRequest) => {
    const form = req.body as Record<string, string>;
    if (form.client_id !== ZENDESK_CLIENT.clientId || form.client_secret !== ZENDESK_CLIENT.clientSecret) {
      return reply(401, { error: 'invalid_client', error_description: 'Client authentication failed.' });
    }
    const granted =
      (form.grant_type === 'authorization_code' && codes.delete(form.code ?? '')) ||
      (form.grant_type === 'refresh_token' && refreshTokens.delete(form.refresh_token ?? ''));
    if (!granted) {
      return reply(400, { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid.' });
    }
    issued += 1;
    tokens.add(`zd-token-${issued}`);
    refreshTokens.add(`zd-refresh-${issued}`);
    return {
      access_token: `zd-token-${issued}`,
      refresh_token: `zd-refresh-${issued}`,
      token_type: 'bearer',
      scope: 'read write',
      expires_in: 172800,
    };
  };

  const vendor = await startFakeVendor({
    authorize: (req) =>
      req.path.startsWith('/oauth/') || tokens.has(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''),
    unauthorized: reply(401, {
      error: 'invalid_token',
      error_description: 'The access token provided is expired, revoked, malformed or invalid for other reasons.',
    }),
    routes: {
      'POST /oauth/tokens': token,
      'GET /api/v2/users/me': () => ({ user: { id: 11, name: 'Ann Agent', email: 'ann@example.com' } }),
      'GET /api/v2/users': (req, fake) => {
        const roles = req.queryAll.getAll('role[]');
        return cursorPage(
          req,
          fake,
          'users',
          data.users.filter((u) => roles.length === 0 || roles.includes(u.role)),
        );
      },
      'GET /api/v2/groups': (req, fake) => cursorPage(req, fake, 'groups', data.groups),
      'GET /api/v2/organizations': (req, fake) => cursorPage(req, fake, 'organizations', data.organizations),
      'GET /api/v2/views': (req, fake) => cursorPage(req, fake, 'views', data.views),
      'GET /api/v2/brands': (req, fake) => {
        const size = Math.min(Number(req.query.per_page ?? 100), limits.page);
        const page = Number(req.query.page ?? 1);
        const more = page * size < data.brands.length;
        return {
          brands: data.brands.slice((page - 1) * size, page * size),
          next_page: more ? `${fake.url}/api/v2/brands.json?page=${page + 1}` : null,
        };
      },
      'GET /api/v2/ticket_forms': () => ({ ticket_forms: [{ id: 500, name: 'Default form' }] }),
      'GET /api/v2/tickets': (req) => ({
        tickets: req.query.sort === '-id' ? [...data.tickets].reverse() : data.tickets,
        meta: { has_more: false },
      }),
      'GET /api/v2/views/:id/tickets': (req) =>
        req.params.id === '100'
          ? { tickets: [...data.tickets].sort((a, b) => b.id - a.id), meta: { has_more: false } }
          : notFound,
      'POST /api/v2/tickets': (req) => {
        const key = req.headers['idempotency-key'];
        if (key && byKey.has(key)) return reply(201, byKey.get(key), { 'x-idempotency-lookup': 'hit' });
        const { ticket } = req.body as { ticket: { comment?: unknown } };
        if (!ticket.comment) {
          return reply(422, {
            error: 'RecordInvalid',
            description: 'Record validation errors',
            details: { base: [{ description: 'Description: cannot be blank' }] },
          });
        }
        const created = { ticket: { id: 4, ...ticket } };
        if (key) byKey.set(key, created);
        return reply(201, created);
      },
      'PUT /api/v2/tickets/:id': (req) => {
        const found = data.tickets.find((t) => String(t.id) === req.params.id);
        if (!found) return notFound;
        return { ticket: { ...found, ...(req.body as { ticket: object }).ticket } };
      },
      'DELETE /api/v2/tickets/:id': (req) =>
        data.tickets.some((t) => String(t.id) === req.params.id) ? reply(204) : notFound,
      'POST /api/v2/users': (req) => {
        const { user } = req.body as { user: { email: string } };
        if (user.email === 'ann@example.com') {
          return reply(422, {
            error: 'RecordInvalid',
            description: 'Record validation errors',
            details: { email: [{ description: 'Email: ann@example.com is already being used by another user' }] },
          });
        }
        return reply(201, { user: { id: 20, active: true, ...user } });
      },
      'DELETE /api/v2/users/:id': (req) => {
        const found = data.users.find((u) => String(u.id) === req.params.id);
        return found ? { user: { ...found, active: false } } : notFound;
      },
      'GET /api/v2/search': (req) => {
        const results = /status:open/.test(req.query.query ?? '') ? [...data.tickets].reverse() : [];
        return { results, count: results.length };
      },
      'POST /api/v2/webhooks': (req) => {
        const { webhook } = req.body as { webhook: { endpoint: string; subscriptions: string[] } };
        const id = `01GWEBHOOK${webhooks.size + 1}`;
        webhooks.set(id, { ...webhook, secret: `zd-signing-secret-${webhooks.size + 1}` });
        return reply(201, { webhook: { id, status: 'active', ...webhook } });
      },
      'GET /api/v2/webhooks/:id/signing_secret': (req) => {
        const found = webhooks.get(req.params.id ?? '');
        return found ? { signing_secret: { algorithm: 'SHA256', secret: found.secret } } : notFound;
      },
      'DELETE /api/v2/webhooks/:id': (req) => (webhooks.delete(req.params.id ?? '') ? reply(204) : notFound),
    },
  });

  return {
    vendor,
    limits,
    webhooks,
    allowCode: (code: string) => void codes.add(code),
    /** The access token stops working, as when it expires. */
    expire: (accessToken: string) => void tokens.delete(accessToken),
    /** A delivery as Zendesk signs it: base64 HMAC-SHA256 of the timestamp and the body. */
    sign: (secret: string, timestamp: string, rawBody: string) =>
      createHmac('sha256', secret).update(`${timestamp}${rawBody}`).digest('base64'),
  };
};

export type FakeZendesk = Awaited<ReturnType<typeof startFakeZendesk>>;
