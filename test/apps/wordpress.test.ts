import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAppDynamicData,
  runAppAction,
  runAppActionOutcome,
  runAppTrigger,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { basicHeader } from '../../adapters/apps/sdk/index.js';
import { wordpress } from '../../adapters/apps/wordpress/index.js';
import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';

const APP_PASSWORD = 'abcd efgh ijkl mnop qrst uvwx';

/** WordPress's error shape: `{ code, message, data: { status } }`. */
const wpError = (status: number, code: string, message: string) => reply(status, { code, message, data: { status } });

/** `per_page` (10 by default, 100 at most) and `page`, with WordPress's total headers; past the last page is an error. */
const wpPage = <T>(req: FakeRequest, all: readonly T[]) => {
  const perPage = Math.min(Number(req.query.per_page ?? 10), 100);
  const page = Number(req.query.page ?? 1);
  const pages = Math.max(1, Math.ceil(all.length / perPage));
  if (page > pages)
    return wpError(
      400,
      'rest_post_invalid_page_number',
      'The page number requested is larger than the number of pages available.',
    );
  return reply(200, all.slice((page - 1) * perPage, page * perPage), {
    'x-wp-total': String(all.length),
    'x-wp-totalpages': String(pages),
  });
};

const CATEGORIES = Array.from({ length: 230 }, (_, i) => ({ id: i + 1, name: `Category ${i + 1}` }));
const POSTS = [
  { id: 12, status: 'publish', title: { rendered: 'Hello again' }, date: '2024-05-02T10:00:00' },
  { id: 11, status: 'draft', title: { rendered: 'Hello' }, date: '2024-05-01T10:00:00' },
];

type WpHandler = (req: FakeRequest, params: Record<string, string>) => unknown;

/** The REST API as `/?rest_route=...`: the route is in the query, the same for every path. */
const restRoutes = (routes: Record<string, WpHandler>) => (req: FakeRequest) => {
  for (const [key, handler] of Object.entries(routes)) {
    const [method, pattern = ''] = key.split(' ');
    const names = [...pattern.matchAll(/:(\w+)/g)].map((found) => found[1] ?? '');
    const regex = new RegExp(`^${pattern.replace(/:\w+/g, '([^/]+)')}$`);
    const match = method === req.method ? regex.exec(req.query.rest_route ?? '') : null;
    if (match) return handler(req, Object.fromEntries(names.map((name, i) => [name, match[i + 1] ?? ''])));
  }
  return wpError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
};

let vendor: FakeVendor;
beforeAll(async () => {
  const rest = restRoutes({
    'GET /wp/v2/users/me': () => ({ id: 1, name: 'Ann Lee', slug: 'ann' }),
    'GET /wp/v2/categories': (req) => wpPage(req, CATEGORIES),
    'GET /wp/v2/tags': (req) => wpPage(req, [{ id: 5, name: 'news' }]),
    'GET /wp/v2/users': (req) => wpPage(req, [{ id: 1, name: 'Ann Lee' }]),
    'GET /wp/v2/media': (req) => wpPage(req, [{ id: 9, slug: 'cat-jpg', title: { rendered: 'Cat' } }]),
    'GET /wp/v2/statuses': () => ({
      publish: { name: 'Published', slug: 'publish' },
      draft: { name: 'Draft', slug: 'draft' },
    }),
    'GET /wp/v2/posts': (req) =>
      req.query.search !== undefined ? POSTS.filter((p) => p.title.rendered === req.query.search) : wpPage(req, POSTS),
    'GET /wp/v2/pages': (req) => wpPage(req, [{ id: 3, status: 'publish' }]),
    'GET /wp/v2/comments': (req) => wpPage(req, [{ id: 31 }, { id: 30 }]),
    'POST /wp/v2/posts': (req) => reply(201, { id: 13, ...(req.body as object) }),
    'POST /wp/v2/posts/:id': (req, params) =>
      params.id === '404'
        ? wpError(404, 'rest_post_invalid_id', 'Invalid post ID.')
        : { id: Number(params.id), ...(req.body as object) },
    'DELETE /wp/v2/posts/:id': (req, params) =>
      req.query.force === 'true'
        ? { deleted: true, previous: { id: Number(params.id) } }
        : { id: Number(params.id), status: 'trash' },
    'POST /wp/v2/users': (req) => reply(201, { id: 2, ...(req.body as object) }),
  });
  vendor = await startFakeVendor({
    authorize: (req) => req.headers.authorization === basicHeader('ann', APP_PASSWORD).authorization,
    unauthorized: wpError(401, 'incorrect_password', 'The provided password is an invalid application password.'),
    routes: { 'GET /': rest, 'POST /': rest, 'DELETE /': rest },
  });
});
afterAll(() => vendor.close());

const auth = () => ({ instanceUrl: `${vendor.url}/`, userLogin: 'ann', password: APP_PASSWORD });
const call = (parameters: Record<string, unknown> = {}) => ({ parameters, auth: auth() });
const lastBody = (route: string) => vendor.requests.filter((r) => r.query.rest_route === route).at(-1);

describe('wordpress: connection', () => {
  it('verifies the application password on the site the connection names', async () => {
    const check = await verifyAppAuth(wordpress, auth());
    expect(check).toMatchObject({ ok: true, screenName: `ann @ ${new URL(vendor.url).host}` });
    expect(lastBody('/wp/v2/users/me')?.path).toBe('/');
  });

  it("refuses a wrong password with WordPress's message", async () => {
    const check = await verifyAppAuth(wordpress, { ...auth(), password: 'nope nope' });
    expect(check).toEqual({
      ok: false,
      reason: `GET ${vendor.url}/ answered 401: The provided password is an invalid application password.`,
    });
  });

  it('refuses a site address that is not http(s)', async () => {
    expect(await verifyAppAuth(wordpress, { ...auth(), instanceUrl: 'ftp://blog' })).toEqual({
      ok: false,
      reason: 'Missing or invalid: instanceUrl.',
    });
  });
});

describe('wordpress: actions', () => {
  it('creates a post with its fields, taking Automatisch rows and variables for categories and tags', async () => {
    const output = await runAppAction(
      wordpress,
      'createPost',
      call({
        title: 'Launch',
        content: '<p>Hi</p>',
        author: '1',
        sticky: 'true',
        categoryIds: [{ categoryId: '3' }, { categoryId: '' }, { categoryId: '4' }],
        tagIds: '5, 6',
        status: 'draft',
      }),
    );
    expect(lastBody('/wp/v2/posts')?.body).toEqual({
      title: 'Launch',
      content: '<p>Hi</p>',
      author: 1,
      sticky: true,
      categories: [3, 4],
      tags: [5, 6],
      status: 'draft',
    });
    expect(output).toMatchObject({ id: 13, title: 'Launch' });
  });

  it('updates the fields given of a post', async () => {
    const output = await runAppAction(
      wordpress,
      'updatePost',
      call({ postId: '12', title: 'Renamed', commentStatus: 'closed' }),
    );
    expect(lastBody('/wp/v2/posts/12')?.body).toEqual({ title: 'Renamed', comment_status: 'closed' });
    expect(output).toEqual({ id: 12, title: 'Renamed', comment_status: 'closed' });
  });

  it("surfaces WordPress's message for a post that does not exist", async () => {
    await expect(runAppAction(wordpress, 'updatePost', call({ postId: '404', title: 'x' }))).rejects.toThrow(
      /answered 404: Invalid post ID\./,
    );
  });

  it('trashes a post, or deletes it for good', async () => {
    expect(await runAppAction(wordpress, 'deletePost', call({ postId: '12' }))).toEqual({ id: 12, status: 'trash' });
    expect(await runAppAction(wordpress, 'deletePost', call({ postId: '12', force: true }))).toEqual({
      deleted: true,
      previous: { id: 12 },
    });
    expect(lastBody('/wp/v2/posts/12')?.method).toBe('DELETE');
  });

  it('finds a post by title, whatever its status, or says there is none', async () => {
    expect(await runAppAction(wordpress, 'findPost', call({ title: 'Hello' }))).toMatchObject({ found: true, id: 11 });
    expect(lastBody('/wp/v2/posts')?.query).toMatchObject({
      search: 'Hello',
      per_page: '1',
      orderby: 'relevance',
      status: 'publish,future,draft,pending,private',
    });
    expect(await runAppAction(wordpress, 'findPost', call({ title: 'Nothing' }))).toEqual({ found: false });
  });

  it('creates a user with a role', async () => {
    const output = await runAppAction(
      wordpress,
      'createUser',
      call({ email: 'bo@x.test', username: 'bo', password: 'pw-123456', firstName: 'Bo', role: 'editor' }),
    );
    expect(lastBody('/wp/v2/users')?.body).toEqual({
      email: 'bo@x.test',
      username: 'bo',
      password: 'pw-123456',
      first_name: 'Bo',
      roles: ['editor'],
    });
    expect(output).toMatchObject({ id: 2, username: 'bo' });
  });

  it('turns a 429 into a retryable failure', async () => {
    vendor.rateLimit(1);
    const outcome = await runAppActionOutcome(wordpress, 'findPost', { parameters: { title: 'Hello' }, auth: auth() });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('wordpress: triggers and dynamic data', () => {
  it('polls new posts, pages and comments of a status, newest first', async () => {
    const posts = await runAppTrigger(wordpress, 'newPost', call({ status: 'publish' }));
    expect(posts.map((item) => item.id)).toEqual(['12', '11']);
    expect(lastBody('/wp/v2/posts')?.query).toMatchObject({
      per_page: '100',
      orderby: 'date',
      order: 'desc',
      status: 'publish',
    });
    expect((await runAppTrigger(wordpress, 'newPage', call({ status: 'publish' }))).map((i) => i.id)).toEqual(['3']);
    expect((await runAppTrigger(wordpress, 'newComment', call({ status: 'hold' }))).map((i) => i.id)).toEqual([
      '31',
      '30',
    ]);
    expect(lastBody('/wp/v2/comments')?.query.status).toBe('hold');
  });

  it('lists categories across pages, stopping at the last one', async () => {
    const categories = await loadAppDynamicData(wordpress, 'listCategories', call());
    expect(categories).toHaveLength(230);
    expect(vendor.requests.filter((r) => r.query.rest_route === '/wp/v2/categories').map((r) => r.query.page)).toEqual([
      undefined,
      '2',
      '3',
    ]);
  });

  it('lists posts, statuses, tags, users and media', async () => {
    expect(await loadAppDynamicData(wordpress, 'listPosts', call())).toEqual([
      { name: 'Hello again (publish)', value: '12' },
      { name: 'Hello (draft)', value: '11' },
    ]);
    expect(await loadAppDynamicData(wordpress, 'listStatuses', call())).toEqual([
      { name: 'Published', value: 'publish' },
      { name: 'Draft', value: 'draft' },
    ]);
    expect(await loadAppDynamicData(wordpress, 'listTags', call())).toEqual([{ name: 'news', value: '5' }]);
    expect(await loadAppDynamicData(wordpress, 'listUsers', call())).toEqual([{ name: 'Ann Lee', value: '1' }]);
    expect(await loadAppDynamicData(wordpress, 'listMedia', call())).toEqual([{ name: 'Cat', value: '9' }]);
  });
});

describe('wordpress: compatibility', () => {
  it("keeps Automatisch's keys", () => {
    const { manifest } = wordpress;
    expect(manifest.key).toBe('wordpress');
    expect(manifest.auth.fields.map((field) => field.key)).toContain('instanceUrl');
    const post = [
      'title',
      'content',
      'excerpt',
      'password',
      'author',
      'featuredMedia',
      'commentStatus',
      'pingStatus',
      'format',
      'sticky',
      'categoryIds',
      'tagIds',
      'status',
      'date',
    ];
    const steps = Object.fromEntries(
      [...manifest.triggers, ...manifest.actions].map((step) => [step.key, step.arguments.map((a) => a.key)]),
    );
    expect(steps).toMatchObject({
      newComment: ['status'],
      newPage: ['status'],
      newPost: ['status'],
      createPost: post,
      updatePost: ['postId', ...post],
      findPost: ['title'],
      createUser: [
        'email',
        'username',
        'password',
        'firstName',
        'lastName',
        'displayName',
        'nickname',
        'description',
        'website',
        'role',
      ],
    });
    expect(steps.deletePost?.[0]).toBe('postId');
    expect(Object.keys(wordpress.dynamicData).sort()).toEqual([
      'listCategories',
      'listMedia',
      'listPosts',
      'listStatuses',
      'listTags',
      'listUsers',
    ]);
  });
});
