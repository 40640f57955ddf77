import { type ExpressionBuilder, type Selectable, sql } from 'kysely';
import type { Flow } from '../../../core/domain/flow.js';
import type { FlowFilter, FlowRepository } from '../../../ports/flow-repositories.js';
import type { Codec } from '../codec.js';
import type { Database, FlowsTable, StepsTable } from '../schema.js';
import { compiledOnce } from './compiled-once.js';
import type { Executor } from './executor.js';
import { likePattern } from './like-pattern.js';
import { createStepRepository, stepFromRow } from './steps.repository.js';

/** Read for every webhook and every claimed run. */
const flowById = compiledOnce(['id'], (db, v) => db.selectFrom('flows').selectAll().where('id', '=', v.id));

/** A flow whose owner's account was not removed: one that may still run. */
const ownerKept = (eb: ExpressionBuilder<Database, 'flows'>) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('users')
        .select('users.id')
        .whereRef('users.id', '=', 'flows.user_id')
        .where('users.deleted_at', 'is not', null),
    ),
  );

/** SQLite: a flow that may run, read for every webhook. */
const runnableFlow = compiledOnce(['id'], (db, v) =>
  db.selectFrom('flows').selectAll().where('id', '=', v.id).where(ownerKept),
);

/** Postgres: a webhook's flow with its trigger in one round trip; the step comes as JSON. */
const flowWithTrigger = compiledOnce(['id'], (db, v) =>
  db
    .selectFrom('flows')
    .selectAll('flows')
    .select(
      sql<Selectable<StepsTable> | null>`case when ${sql.ref('flows.active')} and flows.published_version_id is not null then null else (select row_to_json(s) from steps s where s.flow_id = flows.id and s.type = 'trigger' order by s.position, s.id limit 1) end`.as(
        'trigger_step',
      ),
    )
    .where('id', '=', v.id)
    .where(ownerKept),
);

export const flowFromRow = (codec: Codec, row: Selectable<FlowsTable>): Flow => ({
  id: row.id,
  userId: row.user_id,
  folderId: row.folder_id,
  name: row.name,
  active: codec.readBool(row.active),
  publishedAt: row.published_at === null ? null : codec.readTimestamp(row.published_at),
  publishedVersion:
    row.published_version_id === null || row.published_version_number === null
      ? null
      : { id: row.published_version_id, number: row.published_version_number },
  hasDraftChanges: row.published_version_id === null || codec.readBool(row.draft_changed),
  draftRevision: row.draft_revision,
  createdAt: codec.readTimestamp(row.created_at),
  updatedAt: codec.readTimestamp(row.updated_at),
});

export const createFlowRepository = (executor: Executor): FlowRepository => {
  const { db, codec } = executor;
  const steps = createStepRepository(executor);
  const toFlow = (row: Selectable<FlowsTable>): Flow => flowFromRow(codec, row);

  const usingStep = (eb: ExpressionBuilder<Database, 'flows'>, column: 'app_key' | 'connection_id', value: string) =>
    eb.exists(
      eb
        .selectFrom('steps')
        .select('steps.id')
        .whereRef('steps.flow_id', '=', 'flows.id')
        .where(`steps.${column}`, '=', value),
    );

  const filtered = (filter: FlowFilter) => {
    let query = db.selectFrom('flows');
    if (filter.ownerId !== null) query = query.where('flows.user_id', '=', filter.ownerId);
    if (filter.name) query = query.where(sql<boolean>`lower(flows.name) like ${likePattern(filter.name)} escape '\\'`);
    if (filter.active !== undefined) query = query.where('flows.active', '=', codec.bool(filter.active));
    if (filter.folderId === null) query = query.where('flows.folder_id', 'is', null);
    else if (filter.folderId !== undefined) query = query.where('flows.folder_id', '=', filter.folderId);
    const { appKey, connectionId } = filter;
    if (appKey !== undefined) query = query.where((eb) => usingStep(eb, 'app_key', appKey));
    if (connectionId !== undefined) query = query.where((eb) => usingStep(eb, 'connection_id', connectionId));
    return query;
  };

  return {
    async insert(flow) {
      const now = codec.timestamp(flow.now);
      const row = {
        id: flow.id,
        user_id: flow.userId,
        folder_id: flow.folderId,
        name: flow.name,
        active: codec.bool(false),
        published_at: null,
        published_version_id: null,
        published_version_number: null,
        draft_base_version_id: null,
        draft_revision: 0,
        draft_changed: codec.bool(true),
        file_key: null,
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('flows').values(row).execute();
      return toFlow(row);
    },

    async findById(id) {
      const [row] = (await flowById(executor, { id })).rows;
      return row ? toFlow(row) : null;
    },

    async findWithTrigger(id) {
      if (codec.dialect === 'postgres') {
        // The step reads back with the same codec as a plain row (timestamps as text).
        const [row] = (await flowWithTrigger(executor, { id })).rows;
        if (!row) return null;
        const { trigger_step, ...flow } = row;
        return { flow: toFlow(flow), trigger: trigger_step ? stepFromRow(codec, trigger_step) : null };
      }
      const [row] = (await runnableFlow(executor, { id })).rows;
      if (!row) return null;
      const flow = toFlow(row);
      if (flow.active && flow.publishedVersion) return { flow, trigger: null };
      const trigger = (await steps.listByFlow(id)).find((step) => step.type === 'trigger') ?? null;
      return { flow, trigger };
    },

    async listWithFileKeys(userId) {
      const rows = await db
        .selectFrom('flows')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ flow: toFlow(row), fileKey: row.file_key }));
    },

    async reviseDraft(id, basedOn, now) {
      let query = db
        .updateTable('flows')
        .set((eb) => ({ draft_revision: eb('draft_revision', '+', 1), updated_at: codec.timestamp(now) }))
        .where('id', '=', id);
      if (basedOn !== null) query = query.where('draft_revision', '=', basedOn);
      const row = await query.returning('draft_revision').executeTakeFirst();
      return row ? row.draft_revision : null;
    },

    async lock(id) {
      if (codec.dialect === 'postgres')
        await db.selectFrom('flows').select('id').where('id', '=', id).forUpdate().execute();
    },

    async list(filter, { page, perPage }) {
      const { count } = await filtered(filter)
        .select((eb) => eb.fn.countAll().as('count'))
        .executeTakeFirstOrThrow();
      const rows = await filtered(filter)
        .selectAll('flows')
        .orderBy('flows.updated_at', 'desc')
        .orderBy('flows.id')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      return { items: rows.map(toFlow), total: codec.readInt(count as string | number), page, perPage };
    },

    async update(id, changes, now) {
      await db
        .updateTable('flows')
        .set({
          ...(changes.name !== undefined && { name: changes.name }),
          ...(changes.active !== undefined && { active: codec.bool(changes.active) }),
          ...(changes.publishedAt !== undefined && {
            published_at: changes.publishedAt === null ? null : codec.timestamp(changes.publishedAt),
          }),
          ...(changes.folderId !== undefined && { folder_id: changes.folderId }),
          ...(changes.publishedVersion !== undefined && {
            published_version_id: changes.publishedVersion?.id ?? null,
            published_version_number: changes.publishedVersion?.number ?? null,
          }),
          ...(changes.draftBaseVersionId !== undefined && { draft_base_version_id: changes.draftBaseVersionId }),
          ...(changes.draftChanged !== undefined && { draft_changed: codec.bool(changes.draftChanged) }),
          ...(changes.fileKey !== undefined && { file_key: changes.fileKey }),
          updated_at: codec.timestamp(now),
        })
        .where('id', '=', id)
        .execute();
    },

    async delete(id) {
      await db.deleteFrom('steps').where('flow_id', '=', id).execute();
      await db.deleteFrom('flows').where('id', '=', id).execute();
    },

    async deactivateAllOfUser(userId, now) {
      const rows = await db
        .updateTable('flows')
        .set({ active: codec.bool(false), updated_at: codec.timestamp(now) })
        .where('user_id', '=', userId)
        .where('active', '=', codec.bool(true))
        .returning('id')
        .execute();
      return rows.map((row) => row.id);
    },

    async listTriggeredByApp(ownerId, appKey) {
      // A version's steps are one JSON document: asked with the dialect's JSON operators.
      const versionTrigger =
        codec.dialect === 'postgres'
          ? sql<boolean>`exists (select 1 from flow_versions v where v.id = flows.published_version_id
              and v.steps @> jsonb_build_array(jsonb_build_object('type', 'trigger', 'appKey', ${appKey}::text)))`
          : sql<boolean>`exists (select 1 from flow_versions v, json_each(v.steps) e where v.id = flows.published_version_id
              and json_extract(e.value, '$.type') = 'trigger' and json_extract(e.value, '$.appKey') = ${appKey})`;
      const rows = await db
        .selectFrom('flows')
        .select('flows.id')
        .where('flows.user_id', '=', ownerId)
        .where(ownerKept)
        .where((eb) =>
          eb.or([
            eb.exists(
              eb
                .selectFrom('steps')
                .select('steps.id')
                .whereRef('steps.flow_id', '=', 'flows.id')
                .where('steps.type', '=', 'trigger')
                .where('steps.app_key', '=', appKey),
            ),
            versionTrigger,
          ]),
        )
        .orderBy('flows.created_at')
        .orderBy('flows.id')
        .execute();
      return rows.map((row) => row.id);
    },

    async countByApp(userId) {
      const rows = await db
        .selectFrom('steps')
        .innerJoin('flows', 'flows.id', 'steps.flow_id')
        .select(['steps.app_key', (eb) => eb.fn.count('steps.flow_id').distinct().as('count')])
        .where('flows.user_id', '=', userId)
        .where('steps.app_key', 'is not', null)
        .groupBy('steps.app_key')
        .execute();
      return rows.map((r) => ({ appKey: r.app_key ?? '', count: codec.readInt(r.count as string | number) }));
    },
  };
};
