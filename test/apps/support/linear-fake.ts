import { type FakeRequest, reply, startFakeVendor } from '../../support/fake-vendor.js';

/**
 * Linear's GraphQL API (`POST /graphql`) as its documentation shows it, for the operations the
 * app sends: a personal API key in `Authorization` (no `Bearer`), Relay pagination
 * (`first`/`after`, `pageInfo`), issues ordered by `createdAt` or `updatedAt` newest first, the
 * issue and comment mutations, and failures in `errors` with `extensions` (`RATELIMITED` with the
 * `X-RateLimit-Requests-Reset` header, status 400; validation errors with status 200 and no data).
 */

export const LINEAR_KEY = 'lin_api_test_key_1';

interface GraphQLBody {
  readonly query: string;
  readonly variables?: Record<string, any>;
}

const issue = (n: number, team: string, createdAt: string, updatedAt = createdAt) => ({
  id: `issue-${n}`,
  identifier: `ENG-${n}`,
  title: `Issue ${n}`,
  description: null,
  priority: 0,
  createdAt,
  updatedAt,
  team: { id: team, key: 'ENG', name: 'Engineering' },
  state: { id: 'state-todo', name: 'Todo', type: 'unstarted' },
  assignee: null,
  labels: { nodes: [] },
});

const failure = (status: number, message: string, code: string, presentable?: string, headers = {}) =>
  reply(
    status,
    {
      errors: [{ message, extensions: { code, ...(presentable && { userPresentableMessage: presentable }) } }],
      data: null,
    },
    headers,
  );

export const startFakeLinear = async () => {
  /** The most nodes a page holds (Linear's default is 50); tests lower it. */
  const limits = { page: 50, rateLimited: 0, forbidWebhooks: false };
  /** The workspace's webhooks as made, secrets included. */
  const webhooks: { id: string; input: Record<string, unknown> }[] = [];
  const issues = [
    issue(1, 'team-eng', '2024-05-01T08:00:00.000Z', '2024-05-04T08:00:00.000Z'),
    issue(2, 'team-eng', '2024-05-02T08:00:00.000Z'),
    issue(3, 'team-ops', '2024-05-03T08:00:00.000Z'),
  ];
  const named = {
    teams: [
      { id: 'team-eng', name: 'Engineering' },
      { id: 'team-ops', name: 'Operations' },
      { id: 'team-des', name: 'Design' },
    ],
    users: [
      { id: 'user-1', name: 'Ada' },
      { id: 'user-2', name: 'Linus' },
    ],
    workflowStates: [
      { id: 'state-todo', name: 'Todo' },
      { id: 'state-done', name: 'Done' },
    ],
    issueLabels: [
      { id: 'label-bug', name: 'Bug' },
      { id: 'label-ux', name: 'UX' },
    ],
  };

  /** One page of a connection: `after` is the index of the next node, as text. */
  const page = <T>(nodes: readonly T[], variables: Record<string, any>) => {
    const start = Number(variables.after ?? 0);
    const end = start + limits.page;
    return {
      nodes: nodes.slice(start, end),
      pageInfo: { hasNextPage: end < nodes.length, endCursor: end < nodes.length ? String(end) : null },
    };
  };

  const graphql = (req: FakeRequest) => {
    if (limits.rateLimited > 0) {
      limits.rateLimited -= 1;
      return failure(400, 'Rate limit exceeded', 'RATELIMITED', 'Too many requests.', {
        'x-ratelimit-requests-reset': String(Date.now() + 2000),
      });
    }
    const { query, variables = {} } = req.body as GraphQLBody;
    if (/\bviewer\b/.test(query)) return { data: { viewer: { id: 'user-1', name: 'Ada', email: 'ada@example.com' } } };
    const list = /^query\(\$after: String(?:, \$filter: \w+)?\) \{ (\w+)\(/.exec(query)?.[1];
    if (list && list in named) return { data: { [list]: page(named[list as keyof typeof named], variables) } };
    if (/\bissues\(first: 50/.test(query)) {
      const field = variables.orderBy as 'createdAt' | 'updatedAt';
      const team = variables.filter?.team?.id?.eq;
      const found = issues.filter((i) => !team || i.team.id === team).sort((a, b) => b[field].localeCompare(a[field]));
      return { data: { issues: { nodes: found } } };
    }
    if (/\bissueCreate\(/.test(query)) {
      const input = variables.input as Record<string, unknown>;
      if (!named.teams.some((t) => t.id === input.teamId)) {
        return failure(400, 'Argument Validation Error', 'INVALID_INPUT', 'The team could not be found.');
      }
      return {
        data: {
          issueCreate: {
            success: true,
            issue: { ...issue(4, String(input.teamId), '2024-05-05T08:00:00.000Z'), ...input },
          },
        },
      };
    }
    if (/\bissueUpdate\(/.test(query)) {
      const found = issues.find((i) => i.id === variables.id || i.identifier === variables.id);
      if (!found) return failure(200, 'Entity not found: Issue', 'INVALID_INPUT', 'Could not find referenced Issue.');
      return { data: { issueUpdate: { success: true, issue: { ...found, ...variables.input } } } };
    }
    if (/\bwebhookCreate\(/.test(query)) {
      if (limits.forbidWebhooks) {
        return failure(400, 'Forbidden', 'FORBIDDEN', 'You need to be a workspace admin to create webhooks.');
      }
      const webhook = { id: `webhook-${webhooks.length + 1}`, input: variables.input as Record<string, unknown> };
      webhooks.push(webhook);
      return { data: { webhookCreate: { success: true, webhook: { id: webhook.id, enabled: true } } } };
    }
    if (/\bwebhookDelete\(/.test(query)) {
      const at = webhooks.findIndex((w) => w.id === variables.id);
      if (at < 0)
        return failure(200, 'Entity not found: Webhook', 'INVALID_INPUT', 'Could not find referenced Webhook.');
      webhooks.splice(at, 1);
      return { data: { webhookDelete: { success: true } } };
    }
    if (/\bcommentCreate\(/.test(query)) {
      const { issueId, body } = variables.input as { issueId: string; body: string };
      const found = issues.find((i) => i.id === issueId || i.identifier === issueId);
      if (!found) return failure(200, 'Entity not found: Issue', 'INVALID_INPUT', 'Could not find referenced Issue.');
      return {
        data: {
          commentCreate: {
            success: true,
            comment: { id: 'comment-1', body, issue: { id: found.id, identifier: found.identifier } },
          },
        },
      };
    }
    return failure(400, `The fake does not know this operation: ${query.slice(0, 60)}`, 'GRAPHQL_VALIDATION_FAILED');
  };

  const vendor = await startFakeVendor({
    authorize: (req) => req.headers.authorization === LINEAR_KEY,
    unauthorized: failure(
      400,
      'Authentication required, not authenticated',
      'AUTHENTICATION_ERROR',
      'You need to authenticate to access this operation.',
    ),
    routes: { 'POST /graphql': graphql },
  });
  /** The operations received, in order: their query text and variables. */
  const operations = () => vendor.calls('POST /graphql').map((r) => r.body as GraphQLBody);
  return { vendor, limits, operations, webhooks };
};

export type FakeLinear = Awaited<ReturnType<typeof startFakeLinear>>;
