import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, type StepSpec } from '../support/engine-flows.js';
import {
  enableRegistration,
  installAndSignIn,
  registerAndSignIn,
  startTestInstance,
  type TestInstance,
} from '../support/http.js';

const ref = (stepId: string, path: string) => `{{step.${stepId}.${path}}}`;

/**
 * Forms with the flows that listen for them, over HTTP alone: a form is defined, flows whose
 * trigger is `forms.newFormSubmission` are published, a visitor answers on the public page, and
 * sees what the flows answer; the runs are there with the answers as their trigger's output.
 */
describe.each(DIALECTS)('forms starting flows (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  beforeAll(async () => {
    instance = await startTestInstance(dialect);
    token = await installAndSignIn(instance);
  });
  afterAll(() => instance.close());

  const newForm = async (name = 'Sign-up') => {
    const res = await instance.request('POST', '/forms', {
      token,
      body: {
        name,
        responseMessage: 'We got it.',
        fields: [
          { name: 'Name', key: 'name', type: 'string', required: true },
          { name: 'Email', key: 'email', type: 'string', required: true, validationFormat: 'email' },
          { name: 'Newsletter', key: 'news', type: 'checkbox' },
        ],
      },
    });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };

  /** A flow started by the form, with these actions; published unless told otherwise. */
  const formFlow = async (
    formId: string,
    actions: readonly ((ids: readonly string[]) => StepSpec)[],
    { publish = true, parameters = {} }: { publish?: boolean; parameters?: Record<string, unknown> } = {},
  ) => {
    const trigger = {
      appKey: 'forms',
      key: 'newFormSubmission',
      parameters: { formId, workSynchronously: true, ...parameters },
    };
    const built = await buildFlow(instance, token, trigger, actions);
    if (publish) await built.call('PATCH', `/flows/${built.flowId}/status`, { active: true });
    return built;
  };
  const respondWith =
    (parameters: (trigger: string) => Record<string, unknown>) =>
    ([trigger]: readonly string[]): StepSpec => ({
      appKey: 'forms',
      key: 'respondWith',
      parameters: parameters(trigger as string),
    });

  const submit = (formId: string, answers: Record<string, string>, query = '') =>
    instance.conveyor.app.request(`/forms/${formId}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(answers).toString(),
    });
  const runsOf = async (flowId: string) =>
    (await instance.request('GET', `/executions?flowId=${flowId}`, { token })).body.data as any[];
  const detail = async (executionId: string) =>
    (await instance.request('GET', `/executions/${executionId}`, { token })).body.data;

  it('runs the flow with the answers and shows its "Respond with" answer', async () => {
    const formId = await newForm();
    const { flowId, stepIds } = await formFlow(formId, [
      respondWith((trigger) => ({
        statusCode: 200,
        body: `Welcome ${ref(trigger, 'name')} <${ref(trigger, 'email')}>, newsletter: ${ref(trigger, 'news')}`,
      })),
    ]);
    expect((await instance.conveyor.app.request(`/forms/${formId}`)).status).toBe(200);

    const res = await submit(formId, { name: 'Ada', email: 'ada@example.com', news: 'true' }, '?ref=ad');
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain(
      '<div class="message" role="status">Welcome Ada &lt;ada@example.com&gt;, newsletter: true</div>',
    );

    const [run] = await runsOf(flowId);
    expect(run).toMatchObject({ status: 'success', testRun: false });
    const { steps } = await detail(run.id);
    expect(steps.map((s: { stepId: string }) => s.stepId)).toEqual(stepIds);
    // The trigger's output: the answers keyed by field, and the page's query parameters.
    expect(steps[0].dataOut).toEqual({ name: 'Ada', email: 'ada@example.com', news: 'true', ref: 'ad' });
    expect(steps[1].dataOut).toEqual({
      statusCode: 200,
      headers: {},
      body: 'Welcome Ada <ada@example.com>, newsletter: true',
    });
  });

  it('starts no run for answers the form refuses', async () => {
    const formId = await newForm();
    const { flowId } = await formFlow(formId, [respondWith(() => ({ body: 'never' }))]);
    const res = await submit(formId, { name: 'Ada', email: 'not-an-email' });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('Email: must be an e-mail address.');
    expect(await runsOf(flowId)).toEqual([]);
  });

  it('sends the visitor on with X-Redirect-URL, and keeps a refusal’s status', async () => {
    const redirecting = await newForm();
    await formFlow(redirecting, [
      respondWith((trigger) => ({
        headers: [{ key: 'X-Redirect-URL', value: `https://example.com/welcome?name=${ref(trigger, 'name')}` }],
        body: 'Going on',
      })),
    ]);
    const moved = await submit(redirecting, { name: 'Ada', email: 'ada@example.com' });
    expect(moved.status).toBe(303);
    expect(moved.headers.get('location')).toBe('https://example.com/welcome?name=Ada');

    const refusing = await newForm();
    await formFlow(refusing, [respondWith(() => ({ statusCode: 409, body: 'You are already signed up.' }))]);
    const refused = await submit(refusing, { name: 'Ada', email: 'ada@example.com' });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(
      '<div class="message refused" role="alert">You are already signed up.</div>',
    );
  });

  it('hands the answers to every flow that listens, and keeps them as test data for an unpublished one', async () => {
    const formId = await newForm();
    const answering = await formFlow(formId, [respondWith(() => ({ body: 'First answer' }))]);
    const quiet = await formFlow(
      formId,
      [() => ({ appKey: 'formatter', key: 'text', parameters: { transform: 'uppercase', input: 'x' } })],
      { parameters: { workSynchronously: false } },
    );
    const draft = await formFlow(formId, [respondWith(() => ({ body: 'Draft answer' }))], { publish: false });
    const other = await formFlow(await newForm('Other'), [respondWith(() => ({ body: 'Other' }))]);

    const res = await submit(formId, { name: 'Ada', email: 'ada@example.com' });
    expect(await res.text()).toContain('First answer');
    expect((await runsOf(answering.flowId)).map((r) => r.status)).toEqual(['success']);
    const [queued] = await runsOf(quiet.flowId);
    expect(queued).toMatchObject({ testRun: false });
    expect(await runsOf(other.flowId)).toEqual([]);
    // The draft's trigger can now be tested with the answers, as with a webhook's caught request.
    expect((await runsOf(draft.flowId)).map((r) => r.testRun)).toEqual([true]);
    const tested = await instance.request('POST', `/steps/${draft.stepIds[0]}/test`, { token });
    expect(tested.body.data.lastExecutionStep.dataOut).toEqual({ name: 'Ada', email: 'ada@example.com' });
  });

  it('never hands a form’s answers to another user’s flow that names it', async () => {
    const formId = await newForm();
    await enableRegistration(instance, token);
    const mallory = await registerAndSignIn(instance, {
      fullName: 'Mallory',
      email: 'mallory@example.com',
      password: 'mallory password',
    });
    const trigger = { appKey: 'forms', key: 'newFormSubmission', parameters: { formId, workSynchronously: true } };
    const theirs = await buildFlow(instance, mallory.token, trigger, [respondWith(() => ({ body: 'Stolen' }))]);
    await theirs.call('PATCH', `/flows/${theirs.flowId}/status`, { active: true });
    const res = await submit(formId, { name: 'Ada', email: 'ada@example.com' });
    expect(await res.text()).toContain('We got it.');
    const runs = await instance.request('GET', `/executions?flowId=${theirs.flowId}`, { token: mallory.token });
    expect(runs.body.data).toEqual([]);
  });

  it('without a waiting flow, redirects to the trigger’s URL or shows the response message', async () => {
    const redirecting = await newForm();
    await formFlow(redirecting, [respondWith(() => ({ body: 'Not shown' }))], {
      parameters: { workSynchronously: false, asyncRedirectUrl: 'https://example.com/thanks' },
    });
    const moved = await submit(redirecting, { name: 'Ada', email: 'ada@example.com' });
    expect(moved.status).toBe(303);
    expect(moved.headers.get('location')).toBe('https://example.com/thanks');

    const plain = await newForm();
    await formFlow(plain, [respondWith(() => ({ body: 'Not shown' }))], {
      parameters: { workSynchronously: false },
    });
    expect(await (await submit(plain, { name: 'Ada', email: 'ada@example.com' })).text()).toContain('We got it.');
  });

  it('thanks the visitor when the run goes on past the wait (the run continues)', async () => {
    const formId = await newForm();
    const { flowId } = await formFlow(formId, [
      () => ({ appKey: 'delay', key: 'delayFor', parameters: { delayForUnit: 'hours', delayForValue: 1 } }),
      respondWith(() => ({ body: 'Too late to be shown' })),
    ]);
    const res = await submit(formId, { name: 'Ada', email: 'ada@example.com' });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('Thank you. Your answers were received.');
    expect(page).not.toContain('We got it.');
    expect((await runsOf(flowId)).map((r) => r.status)).toEqual(['waiting']);
  });

  it('lists the owner’s forms for the trigger, and answers a JSON post on the flow’s webhook as Automatisch’s page sends it', async () => {
    const formId = await newForm('Listed');
    const { flowId, stepIds } = await formFlow(formId, [
      respondWith((trigger) => ({ body: `Hello ${ref(trigger, 'name')}` })),
    ]);
    const options = await instance.request('POST', `/steps/${stepIds[0]}/dynamic-data`, {
      token,
      body: { dynamicDataKey: 'listForms' },
    });
    expect(options.status).toBe(200);
    expect(options.body.data).toContainEqual({ name: 'Listed', value: formId });

    const flow = (await instance.request('GET', `/flows/${flowId}`, { token })).body.data;
    expect(flow.steps[0].webhookUrl).toBe(`http://conveyor.test/webhooks/flows/${flowId}/sync`);
    const res = await instance.conveyor.app.request(`/webhooks/flows/${flowId}/sync`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Grace' }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('Hello Grace');
  });
});
