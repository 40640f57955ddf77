import type { ArgumentDescription } from '../../core/domain/app.js';
import type { AppCatalog, DraftOutcome, DraftRequest, OwnerData } from '../../ports/app-catalog.js';
import { type CatalogParts, ownEntry } from './catalog-apps.js';
import { failureReason, secretsOf } from './failure-reason.js';
import type { App, DynamicOption } from './sdk/index.js';

export interface DraftRun extends DraftRequest {
  readonly signal?: AbortSignal;
}

/** Dynamic data and fields called directly: a key the app lacks, or the app's failure, throws. */
export interface DraftHooks {
  dynamicData(run: DraftRun): Promise<readonly DynamicOption[]>;
  dynamicFields(run: DraftRun): Promise<readonly ArgumentDescription[]>;
}

type Drafts = Pick<AppCatalog, 'loadDynamicData' | 'loadDynamicFields'> & DraftHooks;

type DraftHandlers<T> = (app: App) => Readonly<Record<string, (ctx: any) => Promise<T>>>;

/** A draft hook called outside a flow sees an owner with nothing. */
const NO_OWNER: OwnerData = { flows: async () => [], forms: async () => [], agents: async () => [] };

const dataOf: DraftHandlers<readonly DynamicOption[]> = (app) => app.dynamicData;
const fieldsOf: DraftHandlers<readonly ArgumentDescription[]> = (app) => app.dynamicFields;

/** What a step being edited asks its app: the options of a dynamic dropdown, the extra fields. */
export const draftHooks = ({ apps, open, logger }: CatalogParts): Drafts => {
  /** A draft hook's answer, or why the app could not give one (secrets scrubbed from the reason). */
  const load = async <T>(run: DraftRequest, handlers: DraftHandlers<T>): Promise<DraftOutcome<T>> => {
    const app = apps.find(run.appKey);
    const handler = app ? ownEntry(handlers(app), run.key) : undefined;
    if (!app || !handler) return { ok: false, unknownKey: true };
    try {
      const context = open(app, run.connection).context(run.parameters);
      return { ok: true, value: await handler({ ...context, owner: run.owner ?? NO_OWNER }) };
    } catch (error) {
      const reason = failureReason(
        error,
        secretsOf(app, run.connection?.credentials ?? {}, run.connection?.oauth?.client ?? null),
      );
      logger.info({ app: app.key, key: run.key, reason }, 'dynamic data or fields failed');
      return { ok: false, unknownKey: false, reason };
    }
  };

  const call = async <T>(run: DraftRun, handlers: DraftHandlers<T>, what: string): Promise<T> => {
    const app = apps.get(run.appKey);
    const handler = ownEntry(handlers(app), run.key);
    if (!handler) throw new Error(`${app.key} has no ${what} "${run.key}".`);
    return handler({ ...open(app, run.connection, run).context(run.parameters), owner: run.owner ?? NO_OWNER });
  };

  return {
    loadDynamicData: (run) => load(run, dataOf),
    loadDynamicFields: (run) => load(run, fieldsOf),
    dynamicData: (run) => call(run, dataOf, 'dynamic data'),
    dynamicFields: (run) => call(run, fieldsOf, 'dynamic fields'),
  };
};
