import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import {
  BOB,
  enableRegistration,
  installAndSignIn,
  registerAndSignIn,
  startTestInstance,
  type TestInstance,
} from '../support/http.js';

/**
 * The flows and wait apps as the editor meets them: the flows app lists the flow owner's flows,
 * and a wait step is complete without a connection, which only sends its links by e-mail.
 */
describe.each(DIALECTS)('the flow control apps in the editor (%s)', (dialect) => {
  let instance: TestInstance;
  let admin: string;
  let bob: string;
  beforeEach(async () => {
    instance = await startTestInstance(dialect);
    admin = await installAndSignIn(instance);
    await enableRegistration(instance, admin);
    bob = (await registerAndSignIn(instance, BOB)).token;
  });
  afterEach(() => instance.close());

  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await instance.request(method, path, { token, ...(body !== undefined && { body }) });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body.data;
  };
  const newFlow = async (token: string, name: string) => {
    const flow = await call(token, 'POST', '/flows');
    await call(token, 'PATCH', `/flows/${flow.id}`, { name });
    return { id: flow.id as string, actionId: flow.steps[1].id as string };
  };

  it("lists the flow owner's flows, by name, to whoever edits the step", async () => {
    const billing = await newFlow(bob, 'Bill customers');
    const archive = await newFlow(bob, 'Archive orders');
    await newFlow(admin, 'Admin only');
    await call(bob, 'PATCH', `/steps/${billing.actionId}`, { appKey: 'flows', key: 'callFlow' });
    const listed = (token: string) =>
      call(token, 'POST', `/steps/${billing.actionId}/dynamic-data`, { dynamicDataKey: 'listFlows' });
    const expected = [
      { name: 'Archive orders', value: archive.id },
      { name: 'Bill customers', value: billing.id },
    ];
    expect(await listed(bob)).toEqual(expected);
    // An administrator editing Bob's flow sees what Bob's runs may call, not the administrator's flows.
    expect(await listed(admin)).toEqual(expected);
  });

  it('completes a wait step without a connection, unlike an SMTP step', async () => {
    const flow = await newFlow(bob, 'Approvals');
    const approval = await call(bob, 'PATCH', `/steps/${flow.actionId}`, {
      appKey: 'wait',
      key: 'waitForApproval',
      parameters: { message: 'Ship it?', timeoutMinutes: 60 },
    });
    expect(approval.status).toBe('completed');
    const mail = await call(bob, 'PATCH', `/steps/${flow.actionId}`, {
      appKey: 'smtp',
      key: 'sendEmail',
      parameters: { to: 'a@example.com', subject: 'Hi', body: 'Hello' },
    });
    expect(mail.status).toBe('incomplete');

    const wait = await call(bob, 'GET', '/apps/wait');
    expect(wait).toMatchObject({ supportsConnections: true, connectionOptional: true });
    expect(await call(bob, 'GET', '/apps/smtp')).toMatchObject({
      supportsConnections: true,
      connectionOptional: false,
    });
    expect(await call(bob, 'GET', '/apps/flows')).toMatchObject({
      supportsConnections: false,
      connectionOptional: false,
    });
  });
});
