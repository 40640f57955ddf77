import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadAppDynamicData, runAppAction, runAppTrigger, verifyAppAuth } from '../../adapters/apps/app-harness.js';
import { adf } from '../../adapters/apps/jira/adf.js';
import { jira } from '../../adapters/apps/jira/index.js';
import { type FakeJira, JIRA_USER, startFakeJira } from './support/jira-fake.js';
import { rateLimitedOutcome } from './support/rate-limited-outcome.js';

let fake: FakeJira;
let auth: { instanceUrl: string; email: string; apiToken: string };

beforeAll(async () => {
  fake = await startFakeJira();
  auth = { instanceUrl: `${fake.vendor.url}/`, ...JIRA_USER };
});
afterAll(() => fake.vendor.close());
afterEach(() => {
  fake.limits.page = 50;
});

const act = (key: string, parameters: Record<string, unknown>) => runAppAction(jira, key, { auth, parameters });
const poll = (key: string, parameters: Record<string, unknown>) => runAppTrigger(jira, key, { auth, parameters });

describe('jira: connection', () => {
  it("verifies the token on the connection's site, as e-mail and token in basic authentication", async () => {
    const check = await verifyAppAuth(jira, auth);
    expect(check).toMatchObject({ ok: true, screenName: `Ann Lee @ ${new URL(fake.vendor.url).host}` });
    const sent = fake.vendor.calls('GET /rest/api/3/myself').at(-1);
    expect(sent?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${JIRA_USER.email}:${JIRA_USER.apiToken}`).toString('base64')}`,
    );
  });

  it("refuses a wrong token with Jira's words, never showing it", async () => {
    const check = await verifyAppAuth(jira, { ...auth, apiToken: 'wrong-token-9' });
    expect(check).toEqual({
      ok: false,
      reason: `GET ${fake.vendor.url}/rest/api/3/myself answered 401: Client must be authenticated to access this resource.`,
    });
    expect(JSON.stringify(check)).not.toContain('wrong-token-9');
  });

  it('needs the site, e-mail address and token', async () => {
    expect(await verifyAppAuth(jira, { email: 'a@b.c' })).toMatchObject({ ok: false });
  });
});

describe('jira: polling triggers', () => {
  it('newIssues: a JQL search of the project, newest first by creation, with fields', async () => {
    const items = await poll('newIssues', { projectKey: 'OPS' });
    expect(items.map((i) => i.id)).toEqual(['10003', '10002', '10001']);
    expect(items[0]?.data).toMatchObject({ key: 'OPS-3', fields: { summary: 'Issue 3' } });
    expect(fake.vendor.calls('GET /rest/api/3/search/jql').at(-1)?.query).toEqual({
      jql: 'project = "OPS" ORDER BY created DESC',
      fields: '*navigable',
      maxResults: '100',
    });
  });

  it('newIssues: narrowed by issue type and further JQL', async () => {
    const items = await poll('newIssues', { projectKey: 'OPS', issueTypeId: '10001', jql: 'labels = api' });
    expect(items.map((i) => i.id)).toEqual(['10003', '10001']);
    expect(fake.vendor.calls('GET /rest/api/3/search/jql').at(-1)?.query.jql).toBe(
      'project = "OPS" AND issuetype = "10001" AND (labels = api) ORDER BY created DESC',
    );
  });

  it('updatedIssues: newest change first, one id per change', async () => {
    const items = await poll('updatedIssues', { projectKey: 'OPS' });
    expect(items.map((i) => i.id)).toEqual([
      '10002:2024-04-05T10:00:00.000+0000',
      '10003:2024-04-03T10:00:00.000+0000',
      '10001:2024-04-01T10:00:00.000+0000',
    ]);
  });

  it("fails with Jira's errorMessages on a bad search", async () => {
    await expect(poll('newIssues', { projectKey: 'NOPE' })).rejects.toThrow(
      /answered 400: The value 'X' does not exist for the field 'project'\./,
    );
  });
});

describe('jira: actions', () => {
  it('createIssue sends the fields, the description as an ADF document', async () => {
    const output = await act('createIssue', {
      projectKey: 'OPS',
      issueTypeId: '10002',
      summary: 'Checkout fails',
      description: 'Steps:\nopen cart\n\nExpected: works',
      labels: 'checkout, web',
      assigneeId: 'acc-1',
    });
    expect(output).toMatchObject({ id: '10004', key: 'OPS-4' });
    expect(fake.vendor.calls('POST /rest/api/3/issue').at(-1)?.body).toEqual({
      fields: {
        project: { key: 'OPS' },
        issuetype: { id: '10002' },
        summary: 'Checkout fails',
        description: {
          type: 'doc',
          version: 1,
          content: [
            {
              type: 'paragraph',
              content: [{ type: 'text', text: 'Steps:' }, { type: 'hardBreak' }, { type: 'text', text: 'open cart' }],
            },
            { type: 'paragraph', content: [{ type: 'text', text: 'Expected: works' }] },
          ],
        },
        labels: ['checkout', 'web'],
        assignee: { accountId: 'acc-1' },
      },
    });
  });

  it('createIssueComment posts an ADF body; an unknown issue fails with the words of Jira', async () => {
    const output = await act('createIssueComment', { issueKey: 'OPS-1', body: 'On it' });
    expect(output).toMatchObject({ id: '20001', body: adf('On it') });
    await expect(act('createIssueComment', { issueKey: 'OPS-99', body: 'x' })).rejects.toThrow(
      /answered 404: Issue does not exist or you do not have permission to see it\./,
    );
    await expect(act('createIssueComment', { issueKey: 'not a key', body: 'x' })).rejects.toMatchObject({
      fields: { issueKey: ['must be an issue key (PROJ-12) or id.'] },
    });
  });

  it('updateIssue edits fields, adds labels, and answers the issue', async () => {
    const output = await act('updateIssue', { issueKey: 'OPS-2', summary: 'Renamed', addLabels: 'a,b' });
    expect(output).toMatchObject({ key: 'OPS-2', fields: { summary: 'Renamed' } });
    const sent = fake.vendor.calls('PUT /rest/api/3/issue/:key').at(-1);
    expect(sent?.query).toEqual({ returnIssue: 'true' });
    expect(sent?.body).toEqual({ fields: { summary: 'Renamed' }, update: { labels: [{ add: 'a' }, { add: 'b' }] } });
  });

  it('transitionIssue moves the issue with a comment; a transition it cannot take is refused', async () => {
    expect(await act('transitionIssue', { issueKey: 'OPS-1', transitionId: '31', comment: 'Shipped' })).toEqual({
      issueKey: 'OPS-1',
      transitionId: '31',
    });
    expect(fake.vendor.calls('POST /rest/api/3/issue/:key/transitions').at(-1)?.body).toEqual({
      transition: { id: '31' },
      update: { comment: [{ add: { body: adf('Shipped') } }] },
    });
    await expect(act('transitionIssue', { issueKey: 'OPS-1', transitionId: '99' })).rejects.toThrow(
      /answered 400: Transition id '99' is not valid for this issue\./,
    );
  });

  it('turns a 429 into a retryable failure', async () => {
    const outcome = await rateLimitedOutcome(jira, fake.vendor, {
      key: 'createIssueComment',
      parameters: { issueKey: 'OPS-1', body: 'x' },
      credentials: auth,
    });
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true, retryAfterMs: 1000 } });
  });
});

describe('jira: dynamic data', () => {
  const load = (key: string, parameters: Record<string, unknown> = {}) =>
    loadAppDynamicData(jira, key, { auth, parameters });

  it('collects every page of projects (isLast), issue types (total) and assignable users', async () => {
    fake.limits.page = 2;
    expect((await load('listProjects')).map((o) => o.value)).toEqual(['OPS', 'WEB', 'API', 'DOC', 'MOB']);
    expect(
      fake.vendor
        .calls('GET /rest/api/3/project/search')
        .slice(-3)
        .map((r) => r.query.startAt),
    ).toEqual([undefined, '2', '4']);
    expect(await load('listIssueTypes', { projectKey: 'OPS' })).toEqual([
      { name: 'Task', value: '10001' },
      { name: 'Bug', value: '10002' },
      { name: 'Story', value: '10003' },
    ]);
    fake.limits.page = 50;
    expect((await load('listAssignableUsers', { projectKey: 'OPS' })).map((o) => o.name)).toEqual([
      'Ann Lee',
      'Bo Chen',
      'Cy Diaz',
    ]);
  });

  it("lists the issue's transitions, and nothing until a project or issue is chosen", async () => {
    expect(await load('listTransitions', { issueKey: 'OPS-1' })).toEqual([
      { name: 'Start → In Progress', value: '21' },
      { name: 'Done → Done', value: '31' },
    ]);
    expect(await load('listTransitions')).toEqual([]);
    expect(await load('listIssueTypes')).toEqual([]);
  });
});
