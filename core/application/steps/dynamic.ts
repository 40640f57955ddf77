import type { ConnectionUse, DraftOutcome, DraftRequest } from '../../../ports/app-catalog.js';
import type { Actor } from '../../domain/actor.js';
import type { ArgumentDescription, DynamicOption } from '../../domain/app.js';
import { appCallFailed, type DomainError, invalidInput } from '../../domain/errors.js';
import { err, ok, type Result } from '../../domain/result.js';
import { connectionUse } from '../../engine/connection-use.js';
import { loadConnection } from '../connections/load-connection.js';
import type { CoreDeps } from '../deps.js';
import { loadStep } from '../flows/load-flow.js';
import { ownerAgents, ownerFlows } from './owner-flows.js';

type Deps = Pick<CoreDeps, 'repos' | 'uow' | 'clock' | 'apps'>;

export interface DraftInput {
  readonly key: string;
  /** The parameters entered so far; the step's stored ones when left out. */
  readonly parameters?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * Runs one of the step's app's draft hooks with the step's connection (which the actor must be
 * able to read: its account's data is what comes back).
 */
const draft =
  <T>(field: string, load: (deps: Deps) => (request: DraftRequest) => Promise<DraftOutcome<T>>) =>
  (deps: Deps) =>
  async (actor: Actor, stepId: string, input: DraftInput): Promise<Result<T, DomainError>> => {
    const loaded = await loadStep(deps.repos, actor, stepId, 'manage');
    if (!loaded.ok) return loaded;
    const { step, flow } = loaded.value;
    if (step.appKey === null) return err(invalidInput({ [field]: ['needs the step to have an app first.'] }));
    let connection: ConnectionUse | null = null;
    if (step.connectionId !== null) {
      const stored = await loadConnection(deps.repos, actor, step.connectionId, 'read');
      const use = stored.ok ? await connectionUse(deps, stored.value) : stored;
      if (!use.ok) return use;
      connection = use.value;
    }
    const outcome = await load(deps)({
      appKey: step.appKey,
      key: input.key,
      parameters: input.parameters ?? step.parameters,
      connection,
      // The flow's owner's, not the caller's: an administrator editing someone's flow lists their flows and forms.
      owner: {
        flows: () => ownerFlows(deps.repos, flow.userId),
        forms: async () => (await deps.repos.forms.listByUser(flow.userId)).map(({ id, name }) => ({ id, name })),
        agents: () => ownerAgents(deps.repos, flow.userId),
      },
    });
    if (outcome.ok) return ok(outcome.value);
    return err(
      outcome.unknownKey
        ? invalidInput({ [field]: [`is not known to ${step.appKey}.`] })
        : appCallFailed(outcome.reason),
    );
  };

/** The options of a dynamic dropdown of the step. */
export const makeGetDynamicData = draft<readonly DynamicOption[]>(
  'dynamicDataKey',
  (deps) => (request) => deps.apps.loadDynamicData(request),
);

/** The extra arguments the step's app adds for the parameters given. */
export const makeGetDynamicFields = draft<readonly ArgumentDescription[]>(
  'dynamicFieldsKey',
  (deps) => (request) => deps.apps.loadDynamicFields(request),
);
