import { basicHeader } from '../../../adapters/apps/sdk/index.js';
import { type FakeRequest, reply, startFakeVendor } from '../../support/fake-vendor.js';

/**
 * A Jira Cloud site's REST API v3 as Atlassian documents it: basic authentication with an e-mail
 * address and an API token, the enhanced JQL search (`/search/jql`, ids only unless `fields` is
 * given), `startAt` pages that say `isLast` or `total`, issue creation with ADF descriptions,
 * comments, edits, transitions, and `{ errorMessages, errors }` refusals.
 */

export const JIRA_USER = { email: 'ann@example.com', apiToken: 'atl-token-1' };

const issue = (n: number, type: string, created: string, updated = created) => ({
  id: String(10000 + n),
  key: `OPS-${n}`,
  fields: { summary: `Issue ${n}`, issuetype: { id: type }, created, updated },
});

export const startFakeJira = async () => {
  /** The most entries a page holds (Jira's own cap varies by list); tests lower it. */
  const limits = { page: 50 };
  const issues = [
    issue(1, '10001', '2024-04-01T10:00:00.000+0000'),
    issue(2, '10002', '2024-04-02T10:00:00.000+0000', '2024-04-05T10:00:00.000+0000'),
    issue(3, '10001', '2024-04-03T10:00:00.000+0000'),
  ];
  const projects = ['OPS', 'WEB', 'API', 'DOC', 'MOB'].map((key) => ({ id: key.length, key, name: `${key} team` }));
  const types = [
    { id: '10001', name: 'Task' },
    { id: '10002', name: 'Bug' },
    { id: '10003', name: 'Story' },
  ];
  const users = ['Ann Lee', 'Bo Chen', 'Cy Diaz'].map((displayName, i) => ({ accountId: `acc-${i}`, displayName }));

  const window = (req: FakeRequest) => {
    const size = Math.min(Number(req.query.maxResults ?? 50), limits.page);
    const startAt = Number(req.query.startAt ?? 0);
    return { startAt, size, end: startAt + size };
  };
  const known = (key: string | undefined) => issues.find((i) => i.key === key || i.id === key);
  const noIssue = reply(404, {
    errorMessages: ['Issue does not exist or you do not have permission to see it.'],
    errors: {},
  });

  const vendor = await startFakeVendor({
    authorize: (req) => req.headers.authorization === basicHeader(JIRA_USER.email, JIRA_USER.apiToken).authorization,
    unauthorized: reply(401, 'Client must be authenticated to access this resource.', { 'content-type': 'text/plain' }),
    routes: {
      'GET /rest/api/3/myself': () => ({ accountId: 'acc-0', displayName: 'Ann Lee', emailAddress: JIRA_USER.email }),
      'GET /rest/api/3/project/search': (req) => {
        const { startAt, size, end } = window(req);
        return {
          startAt,
          maxResults: size,
          total: projects.length,
          isLast: end >= projects.length,
          values: projects.slice(startAt, end),
        };
      },
      'GET /rest/api/3/issue/createmeta/:project/issuetypes': (req) => {
        if (!projects.some((p) => p.key === req.params.project)) {
          return reply(404, {
            errorMessages: [`No project could be found with key '${req.params.project}'.`],
            errors: {},
          });
        }
        const { startAt, size, end } = window(req);
        return { startAt, maxResults: size, total: types.length, issueTypes: types.slice(startAt, end) };
      },
      'GET /rest/api/3/user/assignable/search': (req) => {
        const { startAt, end } = window(req);
        return users.slice(startAt, end);
      },
      'GET /rest/api/3/search/jql': (req) => {
        const jql = req.query.jql ?? '';
        const order = /ORDER BY (created|updated) DESC$/.exec(jql)?.[1] as 'created' | 'updated' | undefined;
        const type = /issuetype = "(\d+)"/.exec(jql)?.[1];
        if (!/^project = "OPS"/.test(jql))
          return reply(400, { errorMessages: ["The value 'X' does not exist for the field 'project'."], errors: {} });
        const found = issues
          .filter((i) => !type || i.fields.issuetype.id === type)
          .sort((a, b) => (order ? b.fields[order].localeCompare(a.fields[order]) : 0));
        // Without `fields`, the enhanced search answers ids only.
        return { issues: req.query.fields ? found : found.map((i) => ({ id: i.id })), isLast: true };
      },
      'POST /rest/api/3/issue': (req) => {
        const { fields } = req.body as { fields: Record<string, unknown> };
        if (!fields.summary)
          return reply(400, { errorMessages: [], errors: { summary: 'You must specify a summary of the issue.' } });
        return reply(201, { id: '10004', key: 'OPS-4', self: `${vendor.url}/rest/api/3/issue/10004` });
      },
      'POST /rest/api/3/issue/:key/comment': (req) =>
        known(req.params.key)
          ? reply(201, { id: '20001', body: (req.body as { body: unknown }).body, author: { accountId: 'acc-0' } })
          : noIssue,
      'PUT /rest/api/3/issue/:key': (req) => {
        const found = known(req.params.key);
        if (!found) return noIssue;
        const { fields } = req.body as { fields: { summary?: string } };
        const updated = { ...found, fields: { ...found.fields, ...(fields.summary && { summary: fields.summary }) } };
        return req.query.returnIssue === 'true' ? updated : reply(204);
      },
      'GET /rest/api/3/issue/:key/transitions': (req) =>
        known(req.params.key)
          ? {
              transitions: [
                { id: '21', name: 'Start', to: { name: 'In Progress' } },
                { id: '31', name: 'Done', to: { name: 'Done' } },
              ],
            }
          : noIssue,
      'POST /rest/api/3/issue/:key/transitions': (req) => {
        if (!known(req.params.key)) return noIssue;
        const { transition } = req.body as { transition: { id: string } };
        return ['21', '31'].includes(transition.id)
          ? reply(204)
          : reply(400, {
              errorMessages: [`Transition id '${transition.id}' is not valid for this issue.`],
              errors: {},
            });
      },
    },
  });
  return { vendor, limits, issues };
};

export type FakeJira = Awaited<ReturnType<typeof startFakeJira>>;
