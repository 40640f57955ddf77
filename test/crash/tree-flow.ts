import { callApi } from '../support/api-client.js';
import { rawQuery } from '../support/raw-sql.js';
import type { Sink } from './sink.js';
import type { Ledger } from './webhooks.js';

/**
 * The crash suite's flow with structure: webhook → paths (an id with a 1 in it takes the first
 * branch, any other the fallback; each branch posts to the sink) → a loop over 20 items posting
 * each → a call of a sub-flow (which posts, then returns the id) waiting for its result → a last
 * post with that result. Every post carries its own effect id, so that the tally can say, for each
 * acknowledged webhook, which of its 23 effects arrived, under which idempotency key, and how often.
 */

export const LOOP_ITEMS = 20;

export interface TreeFlow {
  readonly flowId: string;
  readonly triggerId: string;
  readonly firstBranchPost: string;
  readonly fallbackPost: string;
  readonly loopId: string;
  readonly loopPost: string;
  readonly donePost: string;
  readonly subPost: string;
}

type Call = (method: string, path: string, body?: unknown) => Promise<any>;

const post = (sinkUrl: string, id: string) => ({
  appKey: 'http-request',
  key: 'customRequest',
  parameters: { method: 'POST', url: sinkUrl, data: `{"id": "${id}"}` },
});

const stepsOf = async (call: Call, flowId: string): Promise<any[]> =>
  (await call('GET', `/flows/${flowId}`)).data.steps;

/** The sub-flow: called by a flow → post `<id>-sub` → return the id. */
const publishSubFlow = async (call: Call, sinkUrl: string) => {
  const flow = (await call('POST', '/flows')).data;
  const [trigger, first] = flow.steps;
  await call('PATCH', `/steps/${trigger.id}`, { appKey: 'flows', key: 'calledByFlow', parameters: {} });
  await call('PATCH', `/steps/${first.id}`, post(sinkUrl, `{{step.${trigger.id}.ref}}-sub`));
  const ret = (await call('POST', `/flows/${flow.id}/steps`, { previousStepId: first.id })).data;
  await call('PATCH', `/steps/${ret.id}`, {
    appKey: 'flows',
    key: 'returnResult',
    parameters: { result: `{{step.${trigger.id}.ref}}` },
  });
  await call('PATCH', `/flows/${flow.id}/status`, { active: true });
  return { flowId: flow.id as string, subPost: first.id as string };
};

export const publishTreeFlow = async (base: string, token: string, sinkUrl: string): Promise<TreeFlow> => {
  const call: Call = (method, path, body) => callApi(base, method, path, token, body);
  const sub = await publishSubFlow(call, sinkUrl);
  const flow = (await call('POST', '/flows')).data;
  const [trigger, first] = flow.steps;
  const id = `{{step.${trigger.id}.body.id}}`;
  await call('PATCH', `/steps/${trigger.id}`, { appKey: 'webhook', key: 'catchRawWebhook', parameters: {} });

  const paths = (await call('POST', `/flows/${flow.id}/steps`, { previousStepId: trigger.id, structuralType: 'paths' }))
    .data;
  await call('DELETE', `/steps/${first.id}`);
  const afterPaths = await stepsOf(call, flow.id);
  const [firstBranch, fallback] = afterPaths.filter((s) => s.parentStepId === paths.id);
  await call('PATCH', `/steps/${firstBranch.id}`, {
    name: 'Has a 1',
    branchConditions: [{ and: [{ key: id, operator: 'contains', value: '1' }] }],
  });
  await call('PATCH', `/steps/${fallback.id}`, { name: 'Otherwise', branchConditions: [] });
  const firstBranchPost = afterPaths.find((s) => s.parentStepId === firstBranch.id).id;
  const fallbackPost = afterPaths.find((s) => s.parentStepId === fallback.id).id;
  await call('PATCH', `/steps/${firstBranchPost}`, post(sinkUrl, `${id}-a`));
  await call('PATCH', `/steps/${fallbackPost}`, post(sinkUrl, `${id}-b`));

  const loop = (await call('POST', `/flows/${flow.id}/steps`, { previousStepId: paths.id, structuralType: 'loop' }))
    .data;
  const items = JSON.stringify(Array.from({ length: LOOP_ITEMS }, (_, i) => i));
  await call('PATCH', `/steps/${loop.id}`, { parameters: { items } });
  const loopPost = (await stepsOf(call, flow.id)).find((s) => s.parentStepId === loop.id).id;
  await call('PATCH', `/steps/${loopPost}`, post(sinkUrl, `${id}-i{{step.${loop.id}.item}}`));

  const caller = (await call('POST', `/flows/${flow.id}/steps`, { previousStepId: loop.id })).data;
  await call('PATCH', `/steps/${caller.id}`, {
    appKey: 'flows',
    key: 'callFlow',
    parameters: { flowId: sub.flowId, input: [{ key: 'ref', value: id }], waitForResult: true },
  });
  const done = (await call('POST', `/flows/${flow.id}/steps`, { previousStepId: caller.id })).data;
  await call('PATCH', `/steps/${done.id}`, post(sinkUrl, `${id}-done-{{step.${caller.id}.result}}`));
  await call('PATCH', `/flows/${flow.id}/status`, { active: true });
  return {
    flowId: flow.id,
    triggerId: trigger.id,
    firstBranchPost,
    fallbackPost,
    loopId: loop.id,
    loopPost,
    donePost: done.id,
    subPost: sub.subPost,
  };
};

export interface TreeTally {
  readonly executions: number;
  readonly unsuccessful: readonly string[];
  /** Acknowledged webhooks without a successful run, or with an effect that never arrived. */
  readonly lost: readonly string[];
  readonly duplicateExecutions: readonly string[];
  /** Effect ids that arrived under more than one idempotency key. */
  readonly duplicateEffects: readonly string[];
  /** Deliveries whose key is not the one of the step and iteration that makes that effect. */
  readonly foreignKeys: number;
  readonly redeliveries: number;
}

/** The effects one webhook's run makes: effect id → the idempotency key that must carry it. */
const expectedEffects = (tree: TreeFlow, webhookId: string, run: string, called: string | null) => {
  const effects = new Map<string, string | null>();
  const branch = webhookId.includes('1') ? ['a', tree.firstBranchPost] : ['b', tree.fallbackPost];
  effects.set(`${webhookId}-${branch[0]}`, `${run}:${branch[1]}`);
  for (let i = 0; i < LOOP_ITEMS; i++) effects.set(`${webhookId}-i${i}`, `${run}:${tree.loopPost}@${tree.loopId}:${i}`);
  effects.set(`${webhookId}-sub`, called && `${called}:${tree.subPost}`);
  effects.set(`${webhookId}-done-${webhookId}`, `${run}:${tree.donePost}`);
  return effects;
};

export const treeTally = async (
  databaseUrl: string,
  tree: TreeFlow,
  ledger: Ledger,
  sink: Sink,
): Promise<TreeTally> => {
  const rows = await rawQuery(
    databaseUrl,
    `select e.id, e.status, s.data_out,
       (select c.id from executions c where c.parent_execution_id = e.id) as called,
       (select c.status from executions c where c.parent_execution_id = e.id) as called_status
     from executions e
     left join execution_steps s on s.execution_id = e.id and s.step_id = ?
     where e.flow_id = ?`,
    [tree.triggerId, tree.flowId],
  );
  const runs = new Map<string, { id: string; status: string; called: string | null; calledStatus: string | null }[]>();
  for (const row of rows) {
    const out = typeof row.data_out === 'string' ? JSON.parse(row.data_out) : row.data_out;
    const webhookId = String(out?.body?.id);
    const run = { id: row.id, status: row.status, called: row.called ?? null, calledStatus: row.called_status ?? null };
    runs.set(webhookId, [...(runs.get(webhookId) ?? []), run]);
  }
  const expectedKeys = new Map<string, string | null>();
  const lost: string[] = [];
  for (const webhookId of ledger.acknowledged) {
    const [run] = runs.get(webhookId) ?? [];
    if (run?.status !== 'success') {
      lost.push(webhookId);
      continue;
    }
    const effects = expectedEffects(tree, webhookId, run.id, run.called);
    for (const [effect, key] of effects) expectedKeys.set(effect, key);
    if ([...effects.keys()].some((effect) => !sink.keysById.has(effect))) lost.push(webhookId);
  }
  let foreignKeys = sink.withoutKey();
  let redeliveries = 0;
  for (const [key, { id, count }] of sink.byKey) {
    redeliveries += count - 1;
    const expected = expectedKeys.get(id);
    // An effect of a webhook that was not acknowledged may have run: its key is not checked.
    if (expected !== undefined && expected !== key) foreignKeys += count;
  }
  const all = [...runs.values()].flat();
  return {
    executions: all.length,
    unsuccessful: all.filter((run) => run.status !== 'success' || run.calledStatus !== 'success').map((run) => run.id),
    lost,
    duplicateExecutions: [...runs].filter(([, list]) => list.length > 1).map(([id]) => id),
    duplicateEffects: [...sink.keysById].filter(([, keys]) => keys.size > 1).map(([id]) => id),
    foreignKeys,
    redeliveries,
  };
};

export const treeSettled = (t: TreeTally) => t.lost.length === 0 && t.unsuccessful.length === 0;
