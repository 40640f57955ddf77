import type { ServerResponse } from 'node:http';
import type { RecordedRequest } from './http-server.js';

/**
 * The repository part of the fake GitHub: issues (pull requests among them, as GitHub lists
 * them), pull requests, stargazers, watchers, labels and branches of `octocat/hello-world`, with
 * GitHub's `page`/`per_page` pagination and Link headers, its sorting and filters, and its error
 * bodies (`{ message, documentation_url }`, 422 `Validation Failed` with `errors`).
 */

const REPO = 'octocat/hello-world';
const DOCS = 'https://docs.github.com/rest';
const user = (id: number, login: string) => ({ id, login, type: 'User' });

export interface FakeIssue {
  id: number;
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  state_reason: string | null;
  created_at: string;
  user: { id: number; login: string };
  assignee: { id: number; login: string } | null;
  labels: { name: string }[];
  pull_request?: { url: string };
  repository: { full_name: string };
}

const issue = (number: number, title: string, day: number, extra: Partial<FakeIssue> = {}): FakeIssue => ({
  id: 1000 + number,
  number,
  title,
  body: null,
  state: 'open',
  state_reason: null,
  created_at: `2024-01-${String(day).padStart(2, '0')}T10:00:00Z`,
  user: user(1, 'octocat'),
  assignee: null,
  labels: [],
  repository: { full_name: REPO },
  ...extra,
});

export const createGitHubRepos = () => {
  const state = {
    /** GitHub's largest page is 100; tests lower it to see several pages. */
    pageLimit: 100,
    issues: [
      issue(1, 'Login fails', 1, { labels: [{ name: 'bug' }], assignee: user(1, 'octocat') }),
      issue(2, 'Add dark mode', 2, { pull_request: { url: 'https://api.github.test/pulls/2' } }),
      issue(3, 'Typo in README', 3, { user: user(2, 'hubot'), labels: [{ name: 'docs' }], body: 'cc @octocat' }),
      issue(4, 'Crash on start', 4, { user: user(3, 'mona'), labels: [{ name: 'bug' }] }),
    ],
    /** Issue numbers the account is subscribed to. */
    subscribed: new Set([3]),
    pulls: [
      { id: 2002, number: 2, title: 'Add dark mode', created_at: '2024-01-02T10:00:00Z', head: { ref: 'dark' } },
      { id: 2005, number: 5, title: 'Fix login', created_at: '2024-01-05T10:00:00Z', head: { ref: 'fix' } },
    ],
    stargazers: [1, 2, 3, 4, 5].map((n) => ({
      starred_at: `2024-02-0${n}T08:00:00Z`,
      user: user(10 + n, `fan-${n}`),
    })),
    watchers: [1, 2, 3, 4, 5].map((n) => user(20 + n, `watcher-${n}`)),
    labels: ['bug', 'docs', 'enhancement', 'good first issue', 'question'].map((name, i) => ({ id: 30 + i, name })),
    branches: ['main', 'dark', 'fix'].map((name) => ({ name, protected: name === 'main' })),
    repos: [{ full_name: REPO }, { full_name: 'octocat/spoon-knife' }],
    comments: [] as { issue: number; body: string }[],
    /** The repository's webhooks, with the secret GitHub keeps (and never shows again). */
    hooks: [] as { id: number; events: string[]; url: string; secret: string }[],
  };

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const notFound = (res: ServerResponse) => send(res, 404, { message: 'Not Found', documentation_url: DOCS });

  /** One page of a list, with GitHub's Link header (`next`, `last`, `first`, `prev`). */
  const page = (res: ServerResponse, url: URL, origin: string, items: readonly unknown[]) => {
    const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), state.pageLimit);
    const current = Number(url.searchParams.get('page') ?? 1);
    const pages = Math.max(1, Math.ceil(items.length / perPage));
    const at = (n: number) => {
      const target = new URL(`${origin}${url.pathname}${url.search}`);
      target.searchParams.set('page', String(n));
      return target.toString();
    };
    const links = [
      ...(current < pages ? [`<${at(current + 1)}>; rel="next"`, `<${at(pages)}>; rel="last"`] : []),
      ...(current > 1 ? [`<${at(1)}>; rel="first"`, `<${at(current - 1)}>; rel="prev"`] : []),
    ];
    send(
      res,
      200,
      items.slice((current - 1) * perPage, current * perPage),
      links.length ? { link: links.join(', ') } : {},
    );
  };

  const newestFirst = <T extends { created_at: string }>(items: readonly T[], url: URL) =>
    url.searchParams.get('sort') === 'created' && url.searchParams.get('direction') === 'desc'
      ? [...items].sort((a, b) => b.created_at.localeCompare(a.created_at))
      : [...items];

  const filterIssues = (url: URL, me: string) => {
    const q = url.searchParams;
    return state.issues.filter(
      (i) =>
        (!q.get('labels') || i.labels.some((l) => l.name === q.get('labels'))) &&
        (!q.get('assignee') || i.assignee?.login === q.get('assignee')) &&
        (!q.get('creator') || i.user.login === q.get('creator')) &&
        (!q.get('mentioned') || (i.body ?? '').includes(`@${q.get('mentioned')}`)) &&
        (q.get('filter') !== 'assigned' || i.assignee?.login === me) &&
        (q.get('filter') !== 'created' || i.user.login === me) &&
        (q.get('filter') !== 'mentioned' || (i.body ?? '').includes(`@${me}`)) &&
        (q.get('filter') !== 'subscribed' || state.subscribed.has(i.number)),
    );
  };

  const json = (request: RecordedRequest) => JSON.parse(request.body || '{}') as Record<string, unknown>;

  /** Answers the repository routes; false when the request is none of them. */
  const handle = (request: RecordedRequest, url: URL, res: ServerResponse): boolean => {
    const { method } = request;
    const origin = `http://${request.headers.host}`;
    if (method === 'GET' && url.pathname === '/user/repos') {
      page(res, url, origin, state.repos);
      return true;
    }
    if (method === 'GET' && url.pathname === '/issues') {
      page(res, url, origin, newestFirst(filterIssues(url, 'octocat'), url));
      return true;
    }
    const match = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(url.pathname);
    if (!match) return false;
    const rest = match[3] ?? '';
    if (`${match[1]}/${match[2]}` !== REPO) {
      // Only issue creation works in other repositories (the fake's older tests use them).
      return false;
    }
    const item = /^\/issues\/(\d+)(\/comments|\/labels)?$/.exec(rest);
    const found = item ? state.issues.find((i) => i.number === Number(item[1])) : undefined;
    if (method === 'GET' && rest === '/issues') page(res, url, origin, newestFirst(filterIssues(url, 'octocat'), url));
    else if (method === 'GET' && rest === '/pulls') page(res, url, origin, newestFirst(state.pulls, url));
    else if (method === 'GET' && rest === '/stargazers') {
      const starJson = request.headers.accept === 'application/vnd.github.star+json';
      page(res, url, origin, starJson ? state.stargazers : state.stargazers.map((s) => s.user));
    } else if (method === 'GET' && rest === '/subscribers') page(res, url, origin, state.watchers);
    else if (method === 'GET' && rest === '/labels') page(res, url, origin, state.labels);
    else if (method === 'GET' && rest === '/branches') page(res, url, origin, state.branches);
    else if (method === 'POST' && rest === '/hooks') {
      const { events, config } = json(request) as { events: string[]; config: { url: string; secret: string } };
      if (state.hooks.some((h) => h.url === config.url)) {
        send(res, 422, {
          message: 'Validation Failed',
          errors: [{ resource: 'Hook', code: 'custom', message: 'Hook already exists on this repository' }],
          documentation_url: DOCS,
        });
      } else {
        const hook = { id: 9000 + state.hooks.length + 1, events, url: config.url, secret: config.secret };
        state.hooks.push(hook);
        send(res, 201, { id: hook.id, active: true, events, config: { ...config, secret: '********' } });
      }
    } else if (method === 'DELETE' && /^\/hooks\/\d+$/.test(rest)) {
      const at = state.hooks.findIndex((h) => `/hooks/${h.id}` === rest);
      if (at < 0) notFound(res);
      else {
        state.hooks.splice(at, 1);
        res.writeHead(204).end();
      }
    } else if (item && !found) notFound(res);
    else if (found && method === 'POST' && item?.[2] === '/comments') {
      const { body } = json(request) as { body: string };
      state.comments.push({ issue: found.number, body });
      send(res, 201, {
        id: 5000 + state.comments.length,
        body,
        issue_url: `https://api.github.test/issues/${found.number}`,
      });
    } else if (found && method === 'POST' && item?.[2] === '/labels') {
      const { labels } = json(request) as { labels: string[] };
      const unknown = labels.find((name) => !state.labels.some((l) => l.name === name));
      if (unknown) {
        send(res, 422, {
          message: 'Validation Failed',
          errors: [{ resource: 'Label', code: 'invalid', field: 'name', value: unknown }],
          documentation_url: DOCS,
        });
      } else {
        for (const name of labels) if (!found.labels.some((l) => l.name === name)) found.labels.push({ name });
        send(res, 200, found.labels);
      }
    } else if (found && method === 'PATCH' && !item?.[2]) {
      Object.assign(found, json(request));
      send(res, 200, found);
    } else if (method === 'POST' && rest === '/pulls') {
      const body = json(request) as { title: string; head: string; base: string; body?: string; draft?: boolean };
      if (body.head === body.base) {
        send(res, 422, {
          message: 'Validation Failed',
          errors: [
            { resource: 'PullRequest', code: 'custom', message: `No commits between ${body.base} and ${body.head}` },
          ],
          documentation_url: DOCS,
        });
      } else {
        const pull = {
          id: 2006,
          number: 6,
          created_at: '2024-01-06T10:00:00Z',
          state: 'open',
          ...body,
          head: { ref: body.head },
          base: { ref: body.base },
        };
        send(res, 201, pull);
      }
    } else return false;
    return true;
  };

  return { state, handle };
};
