import { sql } from 'kysely';
import type { ExecutionStatus } from '../../../core/domain/execution.js';
import {
  DATA_SEARCH_WINDOW,
  type ExecutionFilter,
  type ExecutionRepository,
} from '../../../ports/execution-repositories.js';
import { executionWithFlowFromRow, FLOW_COLUMNS } from './execution-rows.js';
import type { Executor } from './executor.js';
import { likePattern } from './like-pattern.js';

/**
 * A run one of whose records holds the text in its JSON (input, output or error). The records are
 * found through the (execution_id, step_id, scope) key, so each run costs its own records only;
 * the pattern is a plain LIKE with the user's `%` and `_` escaped, so no input makes it a regex.
 */
const recordsContain = (text: string) => {
  const pattern = likePattern(text);
  const json = (column: string) => sql`lower(cast(${sql.ref(`execution_steps.${column}`)} as text))`;
  return sql<boolean>`exists (select 1 from execution_steps where execution_steps.execution_id = executions.id and (${json('data_out')} like ${pattern} escape '\\' or ${json('data_in')} like ${pattern} escape '\\' or ${json('error_details')} like ${pattern} escape '\\'))`;
};

/** Runs as people and metrics read them: one, a filtered page, counts. */
export const executionQueries = (
  executor: Executor,
): Pick<ExecutionRepository, 'findById' | 'list' | 'countByStatus' | 'countRunningByFlow'> => {
  const { db, codec } = executor;
  const unsearched = (filter: ExecutionFilter) => {
    let query = db.selectFrom('executions').innerJoin('flows', 'flows.id', 'executions.flow_id');
    if (filter.ownerId !== null) query = query.where('flows.user_id', '=', filter.ownerId);
    if (filter.flowId) query = query.where('executions.flow_id', '=', filter.flowId);
    if (filter.flowName) {
      query = query.where(sql<boolean>`lower(flows.name) like ${likePattern(filter.flowName)} escape '\\'`);
    }
    if (filter.status) query = query.where('executions.status', '=', filter.status);
    if (filter.from) query = query.where('executions.created_at', '>=', codec.timestamp(filter.from));
    if (filter.to) query = query.where('executions.created_at', '<=', codec.timestamp(filter.to));
    if (filter.flowVersion !== undefined) {
      query = query.where('executions.flow_version_number', '=', filter.flowVersion);
    }
    return query;
  };
  const filtered = (filter: ExecutionFilter) => {
    const query = unsearched(filter);
    if (!filter.dataContains) return query;
    // Among the newest runs the other filters keep only: a window the search never reads past.
    const newest = db
      .selectFrom(
        query
          .select('executions.id')
          .orderBy('executions.created_at', 'desc')
          .orderBy('executions.id', 'desc')
          .limit(filter.dataSearchWindow ?? DATA_SEARCH_WINDOW)
          .as('newest'),
      )
      .select('newest.id');
    return query.where('executions.id', 'in', newest).where(recordsContain(filter.dataContains));
  };
  const countsOf = (rows: { key: string; count: number | string | bigint }[]) =>
    rows.map((row) => [row.key, Number(row.count)] as const);

  return {
    async findById(id) {
      const row = await db
        .selectFrom('executions')
        .innerJoin('flows', 'flows.id', 'executions.flow_id')
        .selectAll('executions')
        .select(FLOW_COLUMNS)
        .where('executions.id', '=', id)
        .executeTakeFirst();
      return row ? executionWithFlowFromRow(codec, row) : null;
    },

    async list(filter, { page, perPage }) {
      const { count } = await filtered(filter)
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow();
      const rows = await filtered(filter)
        .selectAll('executions')
        .select(FLOW_COLUMNS)
        .orderBy('executions.created_at', 'desc')
        .orderBy('executions.id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      const items = rows.map((row) => executionWithFlowFromRow(codec, row));
      return { items, total: codec.readInt(count as string | number), page, perPage };
    },

    async countByStatus() {
      const rows = await db
        .selectFrom('executions')
        .select(['status as key', (eb) => eb.fn.countAll<number | string | bigint>().as('count')])
        .groupBy('status')
        .execute();
      const counts: Record<ExecutionStatus, number> = { running: 0, waiting: 0, success: 0, failure: 0 };
      for (const [status, count] of countsOf(rows)) counts[status as ExecutionStatus] = count;
      return counts;
    },

    async countRunningByFlow() {
      const rows = await db
        .selectFrom('executions')
        .select(['flow_id as key', (eb) => eb.fn.countAll<number | string | bigint>().as('count')])
        .where('status', '=', 'running')
        .groupBy('flow_id')
        .execute();
      return new Map(countsOf(rows));
    },
  };
};
