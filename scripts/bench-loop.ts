/**
 * The loop phase of `npm run bench`: a webhook → loop over 100 items → formatter flow. Runs are sent
 * at BENCH_LOOP_RATE (default 100 a second, faster than the loops can run, so that the figure is
 * what the engine does rather than what it is offered) until BENCH_LOOP_RUNS (default 300) were acknowledged,
 * then the phase waits until every run finished. It reports item-steps a second (each iteration's
 * formatter step is one), from the first call to the last run's end, and the time to drain.
 */
import { callApi as api } from '../test/support/api-client.js';
import { hook } from './bench-load.js';
import type { Completions } from './bench-overload.js';
import { fmt, sleep } from './bench-processes.js';

const ITEMS = 100;
const RUNS = Number(process.env.BENCH_LOOP_RUNS ?? 300);
const RATE = Number(process.env.BENCH_LOOP_RATE ?? 100);

/** Publishes webhook → loop (100 items) → formatter in the loop; its webhook address. */
const publishLoopFlow = async (base: string, token: string) => {
  const flow = (await api(base, 'POST', '/flows', token)).data;
  const [trigger, first] = flow.steps;
  await api(base, 'PATCH', `/steps/${trigger.id}`, token, {
    appKey: 'webhook',
    key: 'catchRawWebhook',
    parameters: {},
  });
  const loop = (
    await api(base, 'POST', `/flows/${flow.id}/steps`, token, { previousStepId: trigger.id, structuralType: 'loop' })
  ).data;
  await api(base, 'DELETE', `/steps/${first.id}`, token);
  const items = JSON.stringify(Array.from({ length: ITEMS }, (_, i) => i));
  await api(base, 'PATCH', `/steps/${loop.id}`, token, { parameters: { items, maxItems: ITEMS } });
  const steps = (await api(base, 'GET', `/flows/${flow.id}`, token)).data.steps as {
    id: string;
    parentStepId: string;
  }[];
  const body = steps.find((step) => step.parentStepId === loop.id);
  if (!body) throw new Error('the loop has no step inside');
  await api(base, 'PATCH', `/steps/${body.id}`, token, {
    appKey: 'formatter',
    key: 'text',
    parameters: { transform: 'uppercase', input: `item {{step.${loop.id}.item}} of {{step.${trigger.id}.body.name}}` },
  });
  await api(base, 'PATCH', `/flows/${flow.id}/status`, token, { active: true });
  return `${base}/webhooks/flows/${flow.id}`;
};

export const loopPhase = async (base: string, token: string, completions: Completions) => {
  const url = await publishLoopFlow(base, token);
  const before = await completions.count();
  const startedAt = performance.now();
  let acknowledged = 0;
  const pending = new Set<Promise<void>>();
  for (let i = 0; acknowledged + pending.size < RUNS; i++) {
    const wait = startedAt + (i * 1000) / RATE - performance.now();
    if (wait > 0) await sleep(wait);
    const call: Promise<void> = hook(url).then((ms) => {
      if (ms !== null) acknowledged++;
      pending.delete(call);
    });
    pending.add(call);
  }
  await Promise.all(pending);
  const sentSeconds = (performance.now() - startedAt) / 1000;
  await completions.waitFor(before + acknowledged);
  const seconds = (performance.now() - startedAt) / 1000;
  console.log(
    `  loop of ${ITEMS} items: ${acknowledged} runs sent at ${RATE}/s in ${fmt(sentSeconds)} s, all done after ${fmt(seconds)} s: ` +
      `${fmt((acknowledged * ITEMS) / seconds)} item-steps/s (${fmt(acknowledged / seconds)} runs/s)`,
  );
};
