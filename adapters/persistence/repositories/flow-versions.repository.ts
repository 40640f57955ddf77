import { type Selectable, sql } from 'kysely';
import {
  type FlowVersion,
  type FlowVersionSummary,
  storedVersionStep,
  type VersionStep,
} from '../../../core/domain/flow-version.js';
import type { FlowVersionRepository } from '../../../ports/flow-repositories.js';
import type { Codec } from '../codec.js';
import type { FlowVersionsTable } from '../schema.js';
import type { Executor } from './executor.js';

const summaryFromRow = (
  codec: Codec,
  row: Omit<Selectable<FlowVersionsTable>, 'steps' | 'name'>,
): FlowVersionSummary => ({
  id: row.id,
  flowId: row.flow_id,
  number: row.number,
  message: row.message,
  publishedBy: row.published_by,
  createdAt: codec.readTimestamp(row.created_at),
});

const versionFromRow = (codec: Codec, row: Selectable<FlowVersionsTable>): FlowVersion => ({
  ...summaryFromRow(codec, row),
  name: row.name,
  steps: codec.readJson<VersionStep[]>(row.steps).map(storedVersionStep),
});

export const createFlowVersionRepository = (executor: Executor): FlowVersionRepository => {
  const { db, codec } = executor;
  return {
    async insert(version) {
      await db
        .insertInto('flow_versions')
        .values({
          id: version.id,
          flow_id: version.flowId,
          number: version.number,
          message: version.message,
          published_by: version.publishedBy,
          name: version.name,
          steps: codec.json(version.steps),
          created_at: codec.timestamp(version.createdAt),
        })
        .execute();
    },

    async findById(id) {
      const row = await db.selectFrom('flow_versions').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? versionFromRow(codec, row) : null;
    },

    async list(flowId, { page, perPage }) {
      const { count } = await db
        .selectFrom('flow_versions')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('flow_id', '=', flowId)
        .executeTakeFirstOrThrow();
      const rows = await db
        .selectFrom('flow_versions')
        .select(['id', 'flow_id', 'number', 'message', 'published_by', 'created_at'])
        .where('flow_id', '=', flowId)
        .orderBy('number', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      return {
        items: rows.map((row) => summaryFromRow(codec, row)),
        total: codec.readInt(count as string | number),
        page,
        perPage,
      };
    },

    async lastNumber(flowId) {
      const row = await db
        .selectFrom('flow_versions')
        .select((eb) => eb.fn.max('number').as('last'))
        .where('flow_id', '=', flowId)
        .executeTakeFirst();
      return row?.last == null ? 0 : codec.readInt(row.last as string | number);
    },

    async prune(keep, limit) {
      // Runs are looked up through their flow's index: versions are pruned rarely, runs written often.
      const doomed = await db
        .selectFrom('flow_versions as v')
        .select('v.id')
        .where(
          'v.number',
          '<=',
          sql<number>`(select max(w.number) from flow_versions w where w.flow_id = v.flow_id) - ${keep}`,
        )
        .where(({ not, exists, selectFrom, or }) =>
          not(
            or([
              exists(
                selectFrom('flows as f')
                  .select('f.id')
                  .whereRef('f.id', '=', 'v.flow_id')
                  .where((w) =>
                    w.or([
                      w('f.published_version_id', '=', w.ref('v.id')),
                      w('f.draft_base_version_id', '=', w.ref('v.id')),
                    ]),
                  ),
              ),
              exists(
                selectFrom('executions as e')
                  .select('e.id')
                  .whereRef('e.flow_id', '=', 'v.flow_id')
                  .whereRef('e.flow_version_id', '=', 'v.id'),
              ),
            ]),
          ),
        )
        .limit(limit)
        .execute();
      if (doomed.length === 0) return 0;
      await db
        .deleteFrom('flow_versions')
        .where(
          'id',
          'in',
          doomed.map((row) => row.id),
        )
        .execute();
      return doomed.length;
    },
  };
};
