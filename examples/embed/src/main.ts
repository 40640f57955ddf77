import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createConveyor, unwrap } from 'conveyor';
import { defineAction, defineApp, noAuth, text } from 'conveyor/sdk';

// 1. An app of our own, written with the SDK: one action that shouts what it is given.
const shout = defineApp({
  key: 'shout',
  name: 'Shout',
  description: 'Turns text into capitals.',
  icon: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" fill="#e11d48"/></svg>',
  primaryColor: '#e11d48',
  version: 1,
  auth: noAuth(),
  triggers: [],
  actions: [
    defineAction({
      key: 'shout',
      name: 'Shout',
      description: 'Answers the text in capitals.',
      arguments: { text: text({ label: 'Text', required: true, acceptsVariables: true }) },
      // ctx.parameters is typed from the arguments: { text: string }.
      run: async (ctx) => ({ shouted: ctx.parameters.text.toUpperCase() }),
    }),
  ],
});

// 2. Conveyor with that app beside the built-in ones, on SQLite in memory, mounted in node:http.
const conveyor = createConveyor({ database: ':memory:', logLevel: 'warn', apps: [shout] });
await conveyor.start();
const server = createServer(conveyor.listener);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
console.log(`Conveyor answers on ${base} (API, webhooks and console)`);

conveyor.on('executionFinished', (event) => console.log(`event: a run of the flow ended in ${event.status}`));

// 3. A flow, made and published through the typed API as the first administrator.
const owner = await conveyor.administrator({
  email: 'owner@example.com',
  password: 'a long enough password',
  fullName: 'Owner',
});
const { useCases } = conveyor;
const flow = unwrap(await useCases.createFlow(owner, {}));
const [trigger, action] = flow.steps;
if (!trigger || !action) throw new Error('a new flow has a trigger and an action');
unwrap(await useCases.updateFlow(owner, flow.id, { name: 'Shout what the webhook says' }));
unwrap(await useCases.updateStep(owner, trigger.id, { appKey: 'webhook', key: 'catchRawWebhook' }));
unwrap(
  await useCases.updateStep(owner, action.id, {
    appKey: 'shout',
    key: 'shout',
    parameters: { text: `{{step.${trigger.id}.body.message}}` },
  }),
);
unwrap(await useCases.publishFlow(owner, flow.id, {}));

// 4. The flow runs: once called over HTTP as any service would, once through the typed API.
const call = await fetch(`${base}/webhooks/flows/${flow.id}`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message: 'hello over http' }),
});
console.log(`webhook answered ${call.status}`);
const { executionIds } = await conveyor.runs.trigger(flow.id, { body: { message: 'hello from the typed api' } });
const [executionId] = executionIds;
if (!executionId) throw new Error('the trigger started no run');

// 5. The finished execution, read back.
const execution = await conveyor.runs.wait(owner, executionId);
const output = execution.steps.at(-1)?.dataOut as { shouted: string };
console.log(`execution ${execution.status}: ${output.shouted}`);

server.close();
await conveyor.stop();
