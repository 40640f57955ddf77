import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from '../apps/support/fake-github.js';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, finishedRun, retryRun, sendWebhook } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

const ref = (stepId: string, path: string) => `{{step.${stepId}.${path}}}`;
const REPO = 'octocat/hello-world';

/**
 * The github app inside running flows, over HTTP alone: an OAuth2 connection to a GitHub-shaped
 * server on loopback, then build, test, publish, run, read the executions, retry.
 */
describe.each(DIALECTS)('github in flows (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  let github: FakeGitHub;
  beforeEach(async () => {
    github = await startFakeGitHub();
    instance = await startTestInstance(dialect, { ALLOW_PRIVATE_NETWORKS: 'true' });
    token = await installAndSignIn(instance);
  });
  afterEach(async () => {
    await instance.close();
    await github.close();
  });

  /** A connection with the user's own OAuth client: consent, code and state back, verify. */
  const connect = async () => {
    const created = await instance.request('POST', '/apps/github/connections', {
      token,
      body: { formattedData: github.client },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id } = created.body.data;
    const consent = await instance.request('POST', `/connections/${id}/auth-url`, { token });
    expect(consent.status, JSON.stringify(consent.body)).toBe(200);
    const state = new URL(consent.body.data.url).searchParams.get('state');
    github.allowCode('flow-code');
    const patched = await instance.request('PATCH', `/connections/${id}`, {
      token,
      body: { formattedData: { code: 'flow-code', state } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const verified = await instance.request('POST', `/connections/${id}/verify`, { token });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body.data).toMatchObject({ verified: true, formattedData: { screenName: 'octocat' } });
    return id as string;
  };

  /** Webhook → trim the summary → an issue in the repository the call names, titled with it. */
  const bugFlow = (connectionId: string) =>
    buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} }, [
      ([trigger]) => ({
        appKey: 'formatter',
        key: 'text',
        parameters: { transform: 'trimWhitespace', input: ref(trigger as string, 'body.summary') },
      }),
      ([trigger, summary]) => ({
        appKey: 'github',
        key: 'createIssue',
        connectionId,
        parameters: {
          repo: ref(trigger as string, 'body.repository'),
          title: `Bug: ${ref(summary as string, 'output')}`,
          body: `Reported by ${ref(trigger as string, 'body.reporter')}.`,
        },
      }),
    ]);
  const report = (summary: string, reporter: string) => ({ repository: REPO, summary: `  ${summary}\n`, reporter });
  const issueIn = (summary: string, reporter: string) => ({
    repo: REPO,
    title: `Bug: ${summary}`,
    body: `Reported by ${reporter}.`,
  });
  const creations = () => github.requests.filter((r) => r.method === 'POST' && r.url === `/repos/${REPO}/issues`);

  it('opens the issue the webhook’s data spells: tested in the editor, then on every call once published', async () => {
    const connectionId = await connect();
    const { flowId, stepIds, flow, call } = await bugFlow(connectionId);
    expect(flow.steps.map((s: { status: string }) => s.status)).toEqual(['completed', 'completed', 'completed']);

    // While the flow is a draft, a call is test data; testing the step really opens an issue.
    await sendWebhook(instance, flowId, report('Login fails on Safari', 'ada'));
    const tested = await instance.request('POST', `/steps/${stepIds[2]}/test`, { token });
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    expect(tested.body.data).toMatchObject({ id: stepIds[2], status: 'completed' });
    expect(tested.body.data.lastExecutionStep).toMatchObject({
      status: 'success',
      dataIn: issueIn('Login fails on Safari', 'ada'),
      dataOut: { number: 7, title: 'Bug: Login fails on Safari', body: 'Reported by ada.' },
    });
    expect(github.issues).toEqual([issueIn('Login fails on Safari', 'ada')]);

    expect((await call('PATCH', `/flows/${flowId}/status`, { active: true })).status).toBe('published');
    await sendWebhook(instance, flowId, report('Dark mode flickers', 'grace'));
    const run = await finishedRun(instance, token, flowId);
    expect(run).toMatchObject({ status: 'success', testRun: false, flowId });
    expect(run.steps.map((s: { stepId: string; status: string }) => [s.stepId, s.status])).toEqual(
      stepIds.map((id) => [id, 'success']),
    );
    const [trigger, summary, issue] = run.steps;
    expect(trigger.dataOut.body).toEqual(report('Dark mode flickers', 'grace'));
    expect(summary.dataIn).toEqual({ transform: 'trimWhitespace', input: '  Dark mode flickers\n' });
    expect(summary.dataOut).toEqual({ output: 'Dark mode flickers' });
    expect(issue.dataIn).toEqual(issueIn('Dark mode flickers', 'grace'));
    expect(issue.dataOut).toEqual({
      number: 7,
      title: 'Bug: Dark mode flickers',
      body: 'Reported by grace.',
      html_url: `https://github.test/${REPO}/issues/7`,
    });
    expect(github.issues).toEqual([issueIn('Login fails on Safari', 'ada'), issueIn('Dark mode flickers', 'grace')]);
    // With the connection's token and GitHub's API version.
    expect(creations().at(-1)?.headers).toMatchObject({
      authorization: expect.stringMatching(/^Bearer access-\d+$/),
      'x-github-api-version': '2022-11-28',
    });
    expect(JSON.stringify(run)).not.toMatch(/access-\d|refresh-\d/);
  });

  it('fails where GitHub refuses, with its status and words; once issues are on, a retry opens it', async () => {
    const connectionId = await connect();
    const { flowId, stepIds, call } = await bugFlow(connectionId);
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    github.disableIssues(REPO);
    await sendWebhook(instance, flowId, report('Crash on start', 'alan'));

    const failed = await finishedRun(instance, token, flowId);
    expect(failed.status).toBe('failure');
    expect(failed.steps.map((s: { stepId: string; status: string }) => [s.stepId, s.status])).toEqual([
      [stepIds[0], 'success'],
      [stepIds[1], 'success'],
      [stepIds[2], 'failure'],
    ]);
    expect(failed.steps[2]).toMatchObject({ dataIn: issueIn('Crash on start', 'alan'), dataOut: null });
    expect(failed.steps[2].errorDetails).toMatchObject({
      message: `POST ${github.url}/repos/${REPO}/issues answered 410: Issues are disabled for this repo`,
      status: 410,
    });
    // A 4xx is not a passing failure: one attempt, no waiting.
    expect(creations()).toHaveLength(1);
    expect(github.issues).toEqual([]);

    github.enableIssues(REPO);
    const retried = await retryRun(instance, token, failed);
    expect(retried.status).toBe('success');
    expect(retried.steps[2]).toMatchObject({
      stepId: stepIds[2],
      status: 'success',
      dataIn: issueIn('Crash on start', 'alan'),
      dataOut: { number: 7, title: 'Bug: Crash on start' },
    });
    expect(github.issues).toEqual([issueIn('Crash on start', 'alan')]);
  });

  it('refreshes an expired token during a run and keeps the new one on the connection', async () => {
    const connectionId = await connect();
    const { flowId, call } = await bugFlow(connectionId);
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    github.expireAll();
    const exchanges = github.tokenRequests().length;
    await sendWebhook(instance, flowId, report('Slow search', 'linus'));

    const run = await finishedRun(instance, token, flowId);
    expect(run.status).toBe('success');
    expect(github.issues).toEqual([issueIn('Slow search', 'linus')]);
    expect(
      github
        .tokenRequests()
        .slice(exchanges)
        .map((r) => new URLSearchParams(r.body).get('grant_type')),
    ).toEqual(['refresh_token']);
    // The stored tokens are the refreshed ones: the old refresh token is spent, yet the connection works.
    const tested = await instance.request('POST', `/connections/${connectionId}/test`, { token });
    expect(tested.body.data.verified).toBe(true);
    expect(github.tokenRequests()).toHaveLength(exchanges + 1);
  });
});
