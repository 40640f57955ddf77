import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, localPostgres } from '../support/databases.js';
import { buildFlow, finishedRun, retryRun, sendWebhook } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';
import { rawQuery } from '../support/raw-sql.js';

const pgUrl = process.env.TEST_DATABASE_URL;
const ref = (stepId: string, path: string) => `{{step.${stepId}.${path}}}`;
/** Statements of the test itself on the Postgres server the flows write to. */
const sql = (statement: string) => rawQuery(pgUrl as string, statement);

/**
 * The postgresql app inside running flows, over HTTP alone: connect, build, test, publish, run,
 * read the executions, retry. The flows write to a schema of their own on the test Postgres
 * server, whichever database the instance itself runs on.
 */
describe.runIf(pgUrl)('postgresql in flows', () => {
  describe.each(DIALECTS)('on %s', (dialect) => {
    let instance: TestInstance;
    let token: string;
    let schema: string;
    beforeEach(async () => {
      instance = await startTestInstance(dialect, { ALLOW_PRIVATE_NETWORKS: 'true' });
      token = await installAndSignIn(instance);
      schema = `flows_pg_${randomBytes(4).toString('hex')}`;
      await sql(`create schema ${schema}`);
    });
    afterEach(async () => {
      await instance.close();
      await sql(`drop schema if exists ${schema} cascade`);
    });

    const createOrdersTable = () =>
      sql(`create table ${schema}.orders (id serial primary key, customer text not null, quantity integer not null)`);
    const orders = () => sql(`select id, customer, quantity from ${schema}.orders order by id`);

    /** A connection to the test server, created and verified as a user would. */
    const connect = async () => {
      const fields = localPostgres();
      const created = await instance.request('POST', '/apps/postgresql/connections', {
        token,
        body: { formattedData: fields },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const verified = await instance.request('POST', `/connections/${created.body.data.id}/verify`, { token });
      expect(verified.status, JSON.stringify(verified.body)).toBe(200);
      expect(verified.body.data).toMatchObject({
        verified: true,
        formattedData: { screenName: `${fields.user}@${fields.host}/${fields.database}` },
      });
      return created.body.data.id as string;
    };

    /** Webhook → capitalize the customer's name → insert an order with it and the quantity. */
    const ordersFlow = (connectionId: string) =>
      buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} }, [
        ([trigger]) => ({
          appKey: 'formatter',
          key: 'text',
          parameters: { transform: 'capitalize', input: ref(trigger as string, 'body.customer') },
        }),
        ([trigger, name]) => ({
          appKey: 'postgresql',
          key: 'insert',
          connectionId,
          parameters: {
            table: `${schema}.orders`,
            values: [
              { key: 'customer', value: ref(name as string, 'output') },
              { key: 'quantity', value: ref(trigger as string, 'body.quantity') },
            ],
          },
        }),
      ]);
    const insertIn = (customer: string, quantity: string) => ({
      table: `${schema}.orders`,
      values: [
        { key: 'customer', value: customer },
        { key: 'quantity', value: quantity },
      ],
    });

    it('inserts a row from the webhook’s data: tested in the editor, then on every call once published', async () => {
      const connectionId = await connect();
      await createOrdersTable();
      const { flowId, stepIds, flow, call } = await ordersFlow(connectionId);
      expect(flow.steps.map((s: { status: string }) => s.status)).toEqual(['completed', 'completed', 'completed']);
      expect(flow.steps[2]).toMatchObject({ appKey: 'postgresql', key: 'insert', connectionId });

      // While the flow is a draft, a call is test data for the editor; testing the step really inserts.
      await sendWebhook(instance, flowId, { customer: 'ada lovelace', quantity: 3 });
      const tested = await instance.request('POST', `/steps/${stepIds[2]}/test`, { token });
      expect(tested.status, JSON.stringify(tested.body)).toBe(200);
      expect(tested.body.data).toMatchObject({ id: stepIds[2], status: 'completed' });
      expect(tested.body.data.lastExecutionStep).toMatchObject({
        status: 'success',
        dataIn: insertIn('Ada Lovelace', '3'),
        dataOut: { rows: [{ id: 1, customer: 'Ada Lovelace', quantity: 3 }], rowCount: 1 },
        errorDetails: null,
      });
      expect(await orders()).toEqual([{ id: 1, customer: 'Ada Lovelace', quantity: 3 }]);

      expect((await call('PATCH', `/flows/${flowId}/status`, { active: true })).status).toBe('published');
      await sendWebhook(instance, flowId, { customer: 'grace hopper', quantity: 5 });
      const run = await finishedRun(instance, token, flowId);
      expect(run).toMatchObject({ status: 'success', testRun: false, retryOf: null, flowId });
      expect(run.finishedAt).not.toBeNull();
      expect(run.steps.map((s: { stepId: string; status: string }) => [s.stepId, s.status])).toEqual(
        stepIds.map((id) => [id, 'success']),
      );
      const [trigger, formatted, inserted] = run.steps;
      expect(trigger.dataOut).toMatchObject({ method: 'POST', body: { customer: 'grace hopper', quantity: 5 } });
      expect(formatted.dataIn).toEqual({ transform: 'capitalize', input: 'grace hopper' });
      expect(formatted.dataOut).toEqual({ output: 'Grace Hopper' });
      expect(inserted.dataIn).toEqual(insertIn('Grace Hopper', '5'));
      expect(inserted.dataOut).toEqual({ rows: [{ id: 2, customer: 'Grace Hopper', quantity: 5 }], rowCount: 1 });
      expect(await orders()).toEqual([
        { id: 1, customer: 'Ada Lovelace', quantity: 3 },
        { id: 2, customer: 'Grace Hopper', quantity: 5 },
      ]);
    });

    it('fails at the insert with the server’s reason; once the table exists, a retry inserts the row', async () => {
      const connectionId = await connect();
      const { flowId, stepIds, call } = await ordersFlow(connectionId);
      // Testing the step in the editor shows the refusal first.
      await sendWebhook(instance, flowId, { customer: 'test', quantity: 1 });
      const tested = await instance.request('POST', `/steps/${stepIds[2]}/test`, { token });
      expect(tested.status, JSON.stringify(tested.body)).toBe(200);
      expect(tested.body.data.lastExecutionStep).toMatchObject({
        status: 'failure',
        errorDetails: { message: `relation "${schema}.orders" does not exist` },
      });

      await call('PATCH', `/flows/${flowId}/status`, { active: true });
      await sendWebhook(instance, flowId, { customer: 'alan turing', quantity: 2 });

      const failed = await finishedRun(instance, token, flowId);
      expect(failed.status).toBe('failure');
      expect(failed.finishedAt).not.toBeNull();
      expect(failed.steps.map((s: { stepId: string; status: string }) => [s.stepId, s.status])).toEqual([
        [stepIds[0], 'success'],
        [stepIds[1], 'success'],
        [stepIds[2], 'failure'],
      ]);
      expect(failed.steps[2]).toMatchObject({
        dataIn: insertIn('Alan Turing', '2'),
        dataOut: null,
        errorDetails: { message: `relation "${schema}.orders" does not exist` },
      });

      await createOrdersTable();
      const retried = await retryRun(instance, token, failed);
      expect(retried.status).toBe('success');
      expect(retried.steps.map((s: { stepId: string; status: string }) => [s.stepId, s.status])).toEqual(
        stepIds.map((id) => [id, 'success']),
      );
      expect(retried.steps[2]).toMatchObject({
        dataIn: insertIn('Alan Turing', '2'),
        dataOut: { rows: [{ id: 1, customer: 'Alan Turing', quantity: 2 }], rowCount: 1 },
      });
      expect(await orders()).toEqual([{ id: 1, customer: 'Alan Turing', quantity: 2 }]);
      // The failed run stays as it was, beside its retry.
      const listed = await instance.request('GET', `/executions?flowId=${flowId}`, { token });
      const runs = listed.body.data.filter((e: { testRun: boolean }) => !e.testRun);
      expect(runs.map((e: { id: string; status: string }) => [e.id, e.status]).sort()).toEqual(
        [
          [failed.id, 'failure'],
          [retried.id, 'success'],
        ].sort(),
      );
    });
  });
});
