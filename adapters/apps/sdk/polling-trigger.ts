import type { ArgumentMap, InferParameters } from './arguments.js';
import type { TriggerContext } from './context.js';
import { defineTrigger, type TriggerDefinition, type TriggerSchedule } from './define.js';
import { entriesAt, type Items, type PaginateLimits, type Pagination, paginate } from './paginate.js';
import type { RequestTemplate } from './rest-action.js';

export interface PollingTriggerOptions<M extends ArgumentMap, F extends string = never> {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly arguments: M;
  readonly dynamicFieldsKey?: F;
  /** The vendor's list of entries, newest first, from the step's typed parameters. */
  request(parameters: InferParameters<M>, ctx: TriggerContext<InferParameters<M>>): RequestTemplate;
  /** Where the entries are in the answer: a dotted path (`data.items`, `''` for the answer itself) or a function. */
  readonly items: Items;
  /** An entry's stable id: the engine starts one run per id and flow, and none for those it has seen. */
  id(entry: any): string | number;
  /** What a run gets as the trigger's output; the entry itself by default. */
  output?(entry: any): unknown;
  /** Reads further pages too (the list is still newest first); one page by default. */
  readonly pagination?: Pagination;
  readonly limits?: PaginateLimits;
  /**
   * A vendor filter that asks only for entries since a point (`since`, `updated_min`, `after`): the
   * query parameter, and its value for an entry. Each poll sends the newest value the poll before
   * last saw, so a poll whose runs were not stored (a crash) is read again; ids dedupe the overlap.
   */
  readonly since?: { readonly param: string; value(entry: any): string | number };
  schedule?(parameters: InferParameters<M>): TriggerSchedule | null;
}

interface SinceState {
  /** Sent now: the newest value of the poll before last. */
  readonly confirmed?: string | number;
  /** The newest value of the last poll, sent from the next one on. */
  readonly candidate?: string | number;
}

const newest = (values: readonly (string | number)[]) =>
  values.reduce<string | number | undefined>(
    (best, value) => (best === undefined || value > best ? value : best),
    undefined,
  );

/**
 * A polling trigger that is one list request (or a few pages) and a mapping of its entries: most
 * SaaS "new thing" triggers. The engine polls it every five minutes (or on `schedule`).
 */
export const pollingTrigger = <const M extends ArgumentMap, const F extends string = never>(
  options: PollingTriggerOptions<M, F>,
): TriggerDefinition<M, F> => {
  const sinceKey = `since:${options.key}`;
  return defineTrigger<M, F>({
    key: options.key,
    name: options.name,
    description: options.description,
    type: 'polling',
    arguments: options.arguments,
    ...(options.dynamicFieldsKey !== undefined && { dynamicFieldsKey: options.dynamicFieldsKey }),
    ...(options.schedule && { schedule: options.schedule }),
    async run(ctx) {
      const template = options.request(ctx.parameters, ctx);
      const state = ((options.since && (await ctx.store.get(sinceKey))) ?? {}) as SinceState;
      const request = {
        method: template.method ?? 'GET',
        path: template.path,
        query: {
          ...template.query,
          ...(options.since && state.confirmed !== undefined && { [options.since.param]: state.confirmed }),
        },
        ...(template.body !== undefined && { body: template.body }),
        ...(template.headers && { headers: template.headers }),
      };
      const entries = options.pagination
        ? await paginate(ctx.http, request, { ...options.pagination, items: options.items }, options.limits)
        : entriesAt((await ctx.http.request(request)).data, options.items);
      if (options.since) {
        const { value } = options.since;
        const latest = newest(entries.map((entry) => value(entry)));
        const next: SinceState = {
          ...((state.candidate ?? state.confirmed) !== undefined && { confirmed: state.candidate ?? state.confirmed }),
          ...((latest ?? state.candidate) !== undefined && { candidate: latest ?? state.candidate }),
        };
        await ctx.store.set(sinceKey, next);
      }
      return entries.map((entry) => ({
        id: String(options.id(entry)),
        data: options.output ? options.output(entry) : entry,
      }));
    },
  });
};
