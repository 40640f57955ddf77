import { createGitHubRepos } from './github-api.js';
import { type RecordedRequest, sendJson, startHttpServer } from './http-server.js';

export const FAKE_CLIENT = { clientId: 'test-client', clientSecret: 'test-client-secret' };

/**
 * A GitHub-shaped OAuth2 authorization and API server on 127.0.0.1: the token endpoint (codes
 * and refresh tokens), `/user`, `/user/repos`, issue creation, and `octocat/hello-world`'s issues,
 * pull requests, stargazers, watchers, labels and branches (`./github-api.ts`).
 */
export const startFakeGitHub = async () => {
  const codes = new Map<string, number>([['good-code', 1]]);
  const refreshTokens = new Map<string, number>();
  const accessTokens = new Set<string>();
  /** Repositories whose issues are switched off: creating one answers 410, as GitHub does. */
  const issuesDisabled = new Set<string>();
  const issues: { repo: string; title: string; body: string | null }[] = [];
  let issued = 0;
  let rateLimited = 0;
  const repos = createGitHubRepos();

  const issue = () => {
    issued++;
    const tokens = { access_token: `access-${issued}`, refresh_token: `refresh-${issued}` };
    accessTokens.add(tokens.access_token);
    refreshTokens.set(tokens.refresh_token, issued);
    return { ...tokens, token_type: 'bearer', scope: 'read:user,repo', expires_in: 28800 };
  };

  const tokenEndpoint = (request: RecordedRequest) => {
    const form = new URLSearchParams(request.body);
    if (form.get('client_id') !== FAKE_CLIENT.clientId || form.get('client_secret') !== FAKE_CLIENT.clientSecret) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'The client credentials are wrong.' } };
    }
    if (form.get('grant_type') === 'authorization_code') {
      const code = form.get('code') ?? '';
      if (!codes.delete(code)) {
        // GitHub answers a bad code with 200 and an error field.
        return {
          status: 200,
          body: { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' },
        };
      }
      return { status: 200, body: issue() };
    }
    if (form.get('grant_type') === 'refresh_token') {
      const token = form.get('refresh_token') ?? '';
      if (!refreshTokens.delete(token)) {
        return {
          status: 400,
          body: { error: 'bad_refresh_token', error_description: 'The refresh token is invalid.' },
        };
      }
      return { status: 200, body: issue() };
    }
    return { status: 400, body: { error: 'unsupported_grant_type' } };
  };

  const server = await startHttpServer((request, res) => {
    const url = new URL(request.url, 'http://fake');
    if (request.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const { status, body } = tokenEndpoint(request);
      return sendJson(res, status, body);
    }
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!accessTokens.has(token)) return sendJson(res, 401, { message: 'Bad credentials' });
    if (rateLimited > 0) {
      rateLimited -= 1;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ message: 'You have exceeded a secondary rate limit.' }));
      return;
    }
    if (request.method === 'GET' && url.pathname === '/user') return sendJson(res, 200, { login: 'octocat', id: 1 });
    if (repos.handle(request, url, res)) return;
    const issuePath = /^\/repos\/([^/]+)\/([^/]+)\/issues$/.exec(url.pathname);
    if (request.method === 'POST' && issuePath) {
      const repo = `${issuePath[1]}/${issuePath[2]}`;
      if (issuesDisabled.has(repo)) return sendJson(res, 410, { message: 'Issues are disabled for this repo' });
      const { title, body } = JSON.parse(request.body) as { title: string; body?: string };
      issues.push({ repo, title, body: body ?? null });
      return sendJson(res, 201, {
        number: 7,
        title,
        body: body ?? null,
        html_url: `https://github.test/${issuePath[1]}/${issuePath[2]}/issues/7`,
      });
    }
    return sendJson(res, 404, { message: 'Not Found' });
  });

  return {
    ...server,
    /** The repository data the fake answers from; tests change it (and `pageLimit`). */
    repos: repos.state,
    /** The next `count` authenticated requests answer 429 with Retry-After: 1. */
    rateLimit: (count: number) => {
      rateLimited = count;
    },
    /** Client settings that point the github app at this server. */
    client: {
      ...FAKE_CLIENT,
      apiBaseUrl: server.url,
      authorizeUrl: `${server.url}/login/oauth/authorize`,
      tokenUrl: `${server.url}/login/oauth/access_token`,
    },
    /** Makes a code valid once more. */
    allowCode: (code: string) => codes.set(code, 1),
    /** The access token stops working, as when it expires. */
    expire: (accessToken: string) => accessTokens.delete(accessToken),
    /** Every access token issued so far stops working. */
    expireAll: () => accessTokens.clear(),
    tokenRequests: () => server.requests.filter((r) => r.url === '/login/oauth/access_token'),
    /** The issues created so far, oldest first. */
    issues,
    /** Issue creation in `repo` answers 410 until `enableIssues`. */
    disableIssues: (repo: string) => void issuesDisabled.add(repo),
    enableIssues: (repo: string) => void issuesDisabled.delete(repo),
  };
};

export type FakeGitHub = Awaited<ReturnType<typeof startFakeGitHub>>;
