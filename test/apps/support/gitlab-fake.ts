import { type FakeRequest, type FakeVendor, reply, startFakeVendor } from '../../support/fake-vendor.js';

/**
 * A GitLab server (`/oauth/...` and `/api/v4/...`) as its documentation shows it: the OAuth
 * application's token endpoint (codes and rotating refresh tokens), `Bearer` tokens, offset
 * pagination and keyset pagination with Link headers, `{ message }` errors and `invalid_grant`.
 */

export const GITLAB_CLIENT = { clientId: 'gl-app', clientSecret: 'gl-secret' };

const PROJECT = { id: 7, name: 'Web', path_with_namespace: 'acme/web' };
const PROJECTS = [
  { id: 3, name: 'Docs', path_with_namespace: 'acme/docs' },
  PROJECT,
  { id: 9, name: 'Api', path_with_namespace: 'acme/api' },
];
const at = (day: number) => `2024-03-0${day}T09:00:00.000Z`;

export const startFakeGitLab = async () => {
  const codes = new Set<string>();
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  let issued = 0;
  /** The largest page the fake answers (GitLab's is 100); tests lower it. */
  const limits = { page: 100 };

  const grant = () => {
    issued += 1;
    const tokens = { access_token: `gl-access-${issued}`, refresh_token: `gl-refresh-${issued}` };
    accessTokens.add(tokens.access_token);
    refreshTokens.add(tokens.refresh_token);
    return { ...tokens, token_type: 'Bearer', expires_in: 7200, scope: 'api read_user', created_at: 1700000000 };
  };

  const invalidGrant = reply(400, {
    error: 'invalid_grant',
    error_description:
      'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
  });

  const token = (req: FakeRequest) => {
    const form = req.body as Record<string, string>;
    if (form.client_id !== GITLAB_CLIENT.clientId || form.client_secret !== GITLAB_CLIENT.clientSecret) {
      return reply(401, {
        error: 'invalid_client',
        error_description: 'Client authentication failed due to unknown client.',
      });
    }
    if (form.grant_type === 'authorization_code') return codes.delete(form.code ?? '') ? grant() : invalidGrant;
    if (form.grant_type === 'refresh_token')
      return refreshTokens.delete(form.refresh_token ?? '') ? grant() : invalidGrant;
    return reply(400, { error: 'unsupported_grant_type' });
  };

  /** Offset pagination: `page`/`per_page`, Link `next` and GitLab's `x-next-page`. */
  const paged = (req: FakeRequest, vendor: FakeVendor, items: readonly unknown[]) => {
    const size = Math.min(Number(req.query.per_page ?? 20), limits.page);
    const page = Number(req.query.page ?? 1);
    const more = page * size < items.length;
    const next = new URL(`${vendor.url}${req.path}`);
    for (const [name, value] of req.queryAll) next.searchParams.set(name, value);
    next.searchParams.set('page', String(page + 1));
    return reply(
      200,
      items.slice((page - 1) * size, page * size),
      more ? { link: `<${next}>; rel="next"`, 'x-next-page': String(page + 1) } : { 'x-next-page': '' },
    );
  };

  const project = (req: FakeRequest) => (req.params.id === '7' || req.params.id === 'acme/web' ? PROJECT : null);
  const projectNotFound = reply(404, { message: '404 Project Not Found' });

  const issues = [1, 2, 3].map((iid) => ({
    id: 700 + iid,
    iid,
    project_id: 7,
    title: `Issue ${iid}`,
    labels: iid === 2 ? ['bug'] : [],
    created_at: at(iid),
    state: 'opened',
  }));
  const mergeRequests = [1, 2].map((iid) => ({
    id: 900 + iid,
    iid,
    title: `MR ${iid}`,
    target_branch: iid === 1 ? 'main' : 'release',
    created_at: at(iid),
  }));
  const commits = ['c3', 'c2', 'c1'].map((id, i) => ({
    id,
    short_id: id,
    title: `Commit ${id}`,
    committed_date: at(3 - i),
  }));
  /** GitLab's `created_after`: on or after that time. */
  const createdAfter = (req: FakeRequest, createdAt: string) =>
    !req.query.created_after || createdAt >= req.query.created_after;
  const branches = ['main', 'release', 'feature'].map((name) => ({ name, merged: false }));
  /** The project's webhooks as made, with the token GitLab keeps (and never shows again). */
  const hooks: { id: number; settings: Record<string, unknown> }[] = [];

  const vendor = await startFakeVendor({
    authorize: (req) =>
      req.path.startsWith('/oauth/') ||
      accessTokens.has(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? ''),
    unauthorized: reply(401, { message: '401 Unauthorized' }),
    rateLimited: reply(429, { message: 'Retry later' }, { 'retry-after': '1' }),
    routes: {
      'POST /oauth/token': token,
      'GET /api/v4/user': () => ({ id: 42, username: 'ada', name: 'Ada' }),
      // Keyset pagination: the next page starts after the last id seen.
      'GET /api/v4/projects': (req, fake) => {
        const size = Math.min(Number(req.query.per_page ?? 20), limits.page);
        const after = Number(req.query.id_after ?? 0);
        const page = PROJECTS.filter((p) => p.id > after).slice(0, size);
        const lastId = page.at(-1)?.id ?? 0;
        const more = PROJECTS.some((p) => p.id > lastId);
        const next = new URL(`${fake.url}${req.path}`);
        for (const [name, value] of req.queryAll) next.searchParams.set(name, value);
        next.searchParams.set('id_after', String(lastId));
        return reply(200, page, more ? { link: `<${next}>; rel="next"` } : {});
      },
      'GET /api/v4/projects/:id/repository/branches': (req, fake) =>
        project(req) ? paged(req, fake, branches) : projectNotFound,
      'GET /api/v4/projects/:id/issues': (req, fake) => {
        if (!project(req)) return projectNotFound;
        const wanted = req.query.labels?.split(',') ?? [];
        const found = issues.filter(
          (issue) => wanted.every((label) => issue.labels.includes(label)) && createdAfter(req, issue.created_at),
        );
        const newest = req.query.order_by === 'created_at' && req.query.sort === 'desc';
        return paged(req, fake, newest ? [...found].reverse() : found);
      },
      'GET /api/v4/projects/:id/merge_requests': (req, fake) => {
        if (!project(req)) return projectNotFound;
        const found = mergeRequests.filter(
          (mr) =>
            (!req.query.target_branch || mr.target_branch === req.query.target_branch) &&
            createdAfter(req, mr.created_at),
        );
        return paged(req, fake, [...found].reverse());
      },
      'GET /api/v4/projects/:id/repository/commits': (req, fake) =>
        project(req)
          ? paged(
              req,
              fake,
              commits.filter((c) => !req.query.since || c.committed_date >= req.query.since),
            )
          : projectNotFound,
      'POST /api/v4/projects/:id/issues': (req) =>
        project(req)
          ? reply(201, { id: 704, iid: 4, project_id: 7, state: 'opened', ...(req.body as object) })
          : projectNotFound,
      'POST /api/v4/projects/:id/issues/:iid/notes': (req) => {
        if (!project(req)) return projectNotFound;
        if (!issues.some((issue) => String(issue.iid) === req.params.iid))
          return reply(404, { message: '404 Issue Not Found' });
        return reply(201, { id: 5001, noteable_iid: Number(req.params.iid), ...(req.body as object) });
      },
      'PUT /api/v4/projects/:id/issues/:iid': (req) => {
        const found = issues.find((issue) => String(issue.iid) === req.params.iid);
        if (!project(req) || !found) return reply(404, { message: '404 Not found' });
        const body = req.body as { state_event?: string; add_labels?: string };
        return {
          ...found,
          ...body,
          state: body.state_event === 'close' ? 'closed' : found.state,
          labels: [...found.labels, ...(body.add_labels?.split(',') ?? [])],
        };
      },
      'POST /api/v4/projects/:id/hooks': (req) => {
        if (!project(req)) return projectNotFound;
        const settings = req.body as Record<string, unknown>;
        if (String(settings.url).includes('localhost')) {
          return reply(422, { message: { url: ['is blocked: Requests to localhost are not allowed'] } });
        }
        const hook = { id: 300 + hooks.length + 1, settings };
        hooks.push(hook);
        const { token: _token, ...shown } = settings;
        return reply(201, { id: hook.id, project_id: 7, ...shown });
      },
      'DELETE /api/v4/projects/:id/hooks/:hook': (req) => {
        const at = hooks.findIndex((h) => String(h.id) === req.params.hook);
        if (!project(req) || at < 0) return reply(404, { message: '404 Not found' });
        hooks.splice(at, 1);
        return reply(204);
      },
      'POST /api/v4/projects/:id/merge_requests': (req) => {
        const body = req.body as { source_branch: string; target_branch: string };
        if (body.source_branch === 'release') {
          return reply(409, { message: ['Another open merge request already exists for this source branch: !2'] });
        }
        return reply(201, { id: 903, iid: 3, state: 'opened', ...body });
      },
    },
  });

  return {
    vendor,
    limits,
    hooks,
    /** Makes a code valid once. */
    allowCode: (code: string) => void codes.add(code),
    /** The access token stops working, as when it expires. */
    expire: (accessToken: string) => void accessTokens.delete(accessToken),
  };
};

export type FakeGitLab = Awaited<ReturnType<typeof startFakeGitLab>>;
