import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually, finishedRun, retryRun, sendWebhook } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';

const ref = (stepId: string, path: string) => `{{step.${stepId}.${path}}}`;
const LOGIN = { user: 'mailer', password: 'smtp-flow-password' };

/**
 * The smtp app inside running flows, over HTTP alone: connect to a real SMTP server on loopback
 * that wants a login, build, test, publish, run, read the executions, retry.
 */
describe.each(DIALECTS)('smtp in flows (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  let sink: SmtpSink;
  beforeEach(async () => {
    sink = await startSmtpSink({ login: LOGIN });
    instance = await startTestInstance(dialect, { ALLOW_PRIVATE_NETWORKS: 'true' });
    token = await installAndSignIn(instance);
  });
  afterEach(async () => {
    await instance.close();
    await sink.close();
  });

  /** A connection to the sink, created and verified as a user would. */
  const connect = async () => {
    const created = await instance.request('POST', '/apps/smtp/connections', {
      token,
      body: {
        formattedData: {
          host: '127.0.0.1',
          port: sink.port,
          user: LOGIN.user,
          password: LOGIN.password,
          secure: false,
          fromEmail: 'orders@conveyor.test',
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const verified = await instance.request('POST', `/connections/${created.body.data.id}/verify`, { token });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect(verified.body.data).toMatchObject({ verified: true, formattedData: { screenName: 'orders@conveyor.test' } });
    return created.body.data.id as string;
  };

  /** Webhook → an e-mail to the customer the call names, about the order it names. */
  const shippingFlow = (connectionId: string) =>
    buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} }, [
      ([trigger]) => ({
        appKey: 'smtp',
        key: 'sendEmail',
        connectionId,
        parameters: {
          fromName: 'Conveyor Orders',
          to: ref(trigger as string, 'body.customer.email'),
          subject: `Order ${ref(trigger as string, 'body.order')} shipped`,
          body: `Hello ${ref(trigger as string, 'body.customer.name')}, your ${ref(trigger as string, 'body.items[0]')} is on its way.`,
        },
      }),
    ]);
  const order = (id: string, name: string, email: string, item: string) => ({
    order: id,
    customer: { name, email },
    items: [item, 'gift wrap'],
  });
  const rendered = (id: string, name: string, email: string, item: string) => ({
    fromName: 'Conveyor Orders',
    to: email,
    subject: `Order ${id} shipped`,
    body: `Hello ${name}, your ${item} is on its way.`,
  });

  it('sends the e-mail the webhook’s data spells: tested in the editor, then on every call once published', async () => {
    const connectionId = await connect();
    const { flowId, stepIds, flow, call } = await shippingFlow(connectionId);
    expect(flow.steps.map((s: { status: string }) => s.status)).toEqual(['completed', 'completed']);

    // While the flow is a draft, a call is test data; testing the step really sends.
    await sendWebhook(instance, flowId, order('A-1001', 'Ada', 'ada@example.com', 'teapot'));
    const tested = await instance.request('POST', `/steps/${stepIds[1]}/test`, { token });
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    expect(tested.body.data).toMatchObject({ id: stepIds[1], status: 'completed' });
    expect(tested.body.data.lastExecutionStep).toMatchObject({
      status: 'success',
      dataIn: rendered('A-1001', 'Ada', 'ada@example.com', 'teapot'),
      dataOut: { messageId: expect.stringMatching(/^<.+>$/), accepted: ['ada@example.com'], rejected: [] },
    });
    const test = await sink.waitFor('ada@example.com');
    expect(test).toMatchObject({ from: 'orders@conveyor.test', subject: 'Order A-1001 shipped' });
    expect(test.text.trim()).toBe('Hello Ada, your teapot is on its way.');

    expect((await call('PATCH', `/flows/${flowId}/status`, { active: true })).status).toBe('published');
    await sendWebhook(instance, flowId, order('B-2002', 'Grace', 'grace@example.com', 'compiler'));
    const run = await finishedRun(instance, token, flowId);
    expect(run).toMatchObject({ status: 'success', testRun: false, flowId });
    expect(run.steps.map((s: { stepId: string; status: string }) => [s.stepId, s.status])).toEqual(
      stepIds.map((id) => [id, 'success']),
    );
    const [trigger, sent] = run.steps;
    expect(trigger.dataOut.body).toEqual(order('B-2002', 'Grace', 'grace@example.com', 'compiler'));
    expect(sent.dataIn).toEqual(rendered('B-2002', 'Grace', 'grace@example.com', 'compiler'));
    expect(sent.dataOut).toEqual({
      messageId: expect.stringMatching(/^<.+>$/),
      accepted: ['grace@example.com'],
      rejected: [],
    });
    const mail = await sink.waitFor('grace@example.com');
    expect(mail).toMatchObject({ from: 'orders@conveyor.test', to: ['grace@example.com'] });
    expect(mail.subject).toBe('Order B-2002 shipped');
    expect(mail.text.trim()).toBe('Hello Grace, your compiler is on its way.');
    expect(sink.received).toHaveLength(2);
    // The connection's password reaches the server, never the execution record.
    expect(JSON.stringify(run)).not.toContain(LOGIN.password);
  });

  it('fails where the server refuses the recipient, with its reply; once it accepts, a retry sends', async () => {
    const connectionId = await connect();
    const { flowId, stepIds, call } = await shippingFlow(connectionId);
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    sink.refuse('alan@example.com');
    await sendWebhook(instance, flowId, order('C-3003', 'Alan', 'alan@example.com', 'bombe'));

    const failed = await finishedRun(instance, token, flowId);
    expect(failed.status).toBe('failure');
    expect(failed.steps.map((s: { stepId: string; status: string }) => [s.stepId, s.status])).toEqual([
      [stepIds[0], 'success'],
      [stepIds[1], 'failure'],
    ]);
    expect(failed.steps[1]).toMatchObject({
      dataIn: rendered('C-3003', 'Alan', 'alan@example.com', 'bombe'),
      dataOut: null,
    });
    expect(failed.steps[1].errorDetails.message).toMatch(/550 5\.1\.1 <alan@example\.com>: mailbox unavailable/);
    expect(sink.received).toEqual([]);

    sink.accept('alan@example.com');
    const retried = await retryRun(instance, token, failed);
    expect(retried.status).toBe('success');
    expect(retried.steps[1]).toMatchObject({
      stepId: stepIds[1],
      status: 'success',
      dataOut: { accepted: ['alan@example.com'], rejected: [] },
    });
    const mail = await sink.waitFor('alan@example.com');
    expect(mail.subject).toBe('Order C-3003 shipped');
    expect(mail.text.trim()).toBe('Hello Alan, your bombe is on its way.');
    expect(sink.received).toHaveLength(1);
  });

  it('waits while the mail server is down instead of failing, and sends once it is back', async () => {
    const connectionId = await connect();
    const { flowId, stepIds, call } = await shippingFlow(connectionId);
    await call('PATCH', `/flows/${flowId}/status`, { active: true });
    const { port } = sink;
    await sink.close();
    await sendWebhook(instance, flowId, order('D-4004', 'Linus', 'linus@example.com', 'penguin'));

    const [waiting] = await eventually(
      async (): Promise<any[]> => (await instance.request('GET', `/executions?flowId=${flowId}`, { token })).body.data,
      (rows) => rows[0]?.status === 'waiting',
    );
    expect(waiting.resumeAt).not.toBeNull();
    sink = await startSmtpSink({ login: LOGIN, port });

    const run = await finishedRun(instance, token, flowId);
    expect(run.status).toBe('success');
    // The attempts that met a closed port left no record: one success per step.
    expect(run.steps.map((s: { stepId: string; status: string }) => [s.stepId, s.status])).toEqual(
      stepIds.map((id) => [id, 'success']),
    );
    const mail = await sink.waitFor('linus@example.com');
    expect(mail.subject).toBe('Order D-4004 shipped');
  });
});
