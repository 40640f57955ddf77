import type { FlowView } from '../../core/application/flows/flow-views.js';
import type { Actor } from '../../core/domain/actor.js';
import { authorize } from '../../core/policy/authorize.js';
import { NOTES_CREDENTIALS } from '../support/flow-apps.js';
import type { ActorFactory, TestActor } from './actors.js';
import { unique } from './route-case.js';

const must = <T>(result: { ok: true; value: T } | { ok: false; error: { code: string } }, what: string): T => {
  if (!result.ok) throw new Error(`could not ${what}: ${result.error.code}`);
  return result.value;
};

/** Who owns what a row makes: the caller when their role lets them, else the installing administrator. */
export const owner = async (fx: ActorFactory, actor: TestActor | null): Promise<Actor> =>
  actor?.core && authorize(actor.core, 'manage', 'Flow') === null ? actor.core : fx.adminActor;

/** A new flow of the caller (or, for callers who cannot make one, the administrator's). */
export const flowFor = async (fx: ActorFactory, actor: TestActor | null): Promise<FlowView> =>
  must(await fx.useCases.createFlow(await owner(fx, actor), {}), 'create a flow');

export const actionOf = (flow: FlowView) => flow.steps[1]?.id ?? '';

/** A flow whose action is a test-notes step with a connection of the flow's owner. */
export const connectedStepFor = async (fx: ActorFactory, actor: TestActor | null): Promise<string> => {
  const by = await owner(fx, actor);
  const flow = must(await fx.useCases.createFlow(by, {}), 'create a flow');
  const connection = must(
    await fx.useCases.createConnection(by, 'test-notes', { formattedData: NOTES_CREDENTIALS }),
    'create a connection',
  );
  const input = { appKey: 'test-notes', key: 'addNote', connectionId: connection.id };
  return must(await fx.useCases.updateStep(by, actionOf(flow), input), 'set up a step').value.id;
};

/** A folder of the caller (or of the administrator). */
export const folderFor = async (fx: ActorFactory, actor: TestActor | null): Promise<string> =>
  must(await fx.useCases.createFolder(await owner(fx, actor), { name: `Folder ${unique()}` }), 'create a folder').id;

/** A flow filed in a folder of its owner. */
export const filedFlowFor = async (fx: ActorFactory, actor: TestActor | null): Promise<string> => {
  const by = await owner(fx, actor);
  const flow = must(await fx.useCases.createFlow(by, {}), 'create a flow');
  const folder = must(await fx.useCases.createFolder(by, { name: `Folder ${unique()}` }), 'create a folder');
  must(await fx.useCases.updateFlowFolder(by, flow.id, { folderId: folder.id }), 'file a flow');
  return flow.id;
};

export const newTemplate = async (fx: ActorFactory): Promise<string> => {
  const flow = await flowFor(fx, null);
  const input = { name: `Template ${unique()}`, flowId: flow.id };
  return must(await fx.useCases.createTemplate(fx.adminActor, input), 'create a template').id;
};

/** Templates switched on, and one template to read. */
export const templateFixtures = async (fx: ActorFactory) => {
  must(await fx.useCases.updateInstanceConfig(fx.adminActor, { enableTemplates: true }), 'enable templates');
  return { templateId: await newTemplate(fx) };
};

/** A flow of the caller (or of the administrator) published as version 1, with its draft changed since. */
export const publishedFlowFor = async (
  fx: ActorFactory,
  actor: TestActor | null,
): Promise<{ readonly flowId: string; readonly versionId: string }> => {
  const by = await owner(fx, actor);
  const flow = must(await fx.useCases.createFlow(by, {}), 'create a flow');
  const [trigger, action] = flow.steps;
  if (!trigger || !action) throw new Error('a new flow has a trigger and an action');
  must(await fx.useCases.updateStep(by, trigger.id, { appKey: 'webhook', key: 'catchRawWebhook' }), 'set a trigger');
  const parameters = (input: string) => ({ parameters: { transform: 'uppercase', input } });
  must(
    await fx.useCases.updateStep(by, action.id, { appKey: 'formatter', key: 'text', ...parameters('one') }),
    'set an action',
  );
  const published = must(await fx.useCases.publishFlow(by, flow.id, {}), 'publish a flow');
  must(await fx.useCases.updateStep(by, action.id, parameters('two')), 'change the draft');
  return { flowId: flow.id, versionId: published.version.id };
};
