import { randomUUID } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Flows get versions: every publish stores the flow's steps as an immutable version, the engine
 * runs the published one, and the steps table becomes the flow's draft. Each run records the
 * version it runs on.
 *
 * Flows published before this migration get version 1, their steps as they are now (what they
 * run today), published by their owner; their unfinished runs go on on it. Finished runs ran on
 * steps nobody recorded: they name no version.
 */
export const flowVersions: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    const no = t.postgres ? false : 0;
    const yes = t.postgres ? true : 1;
    await db.schema
      .createTable('flow_versions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('flow_id', 'text', (c) => c.notNull().references('flows.id').onDelete('cascade'))
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('message', 'text')
      // No reference: a version keeps naming who published it after their account is gone.
      .addColumn('published_by', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('steps', t.json, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addUniqueConstraint('flow_versions_flow_number_unique', ['flow_id', 'number'])
      .execute();

    await db.schema.alterTable('flows').addColumn('published_version_id', 'text').execute();
    await db.schema.alterTable('flows').addColumn('published_version_number', 'integer').execute();
    // The version the draft was last made from (a publish, a discard or a restore): kept from pruning.
    await db.schema.alterTable('flows').addColumn('draft_base_version_id', 'text').execute();
    await db.schema
      .alterTable('flows')
      .addColumn('draft_revision', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('flows')
      .addColumn('draft_changed', t.bool, (c) => c.notNull().defaultTo(yes))
      .execute();
    // The name a flow goes by in files (`conveyor flows export`), unique per owner.
    await db.schema.alterTable('flows').addColumn('file_key', 'text').execute();
    await db.schema
      .createIndex('flows_user_file_key_unique')
      .on('flows')
      .columns(['user_id', 'file_key'])
      .unique()
      .execute();

    await db.schema.alterTable('executions').addColumn('flow_version_id', 'text').execute();
    await db.schema.alterTable('executions').addColumn('flow_version_number', 'integer').execute();

    const published = (await db
      .selectFrom('flows')
      .select(['id', 'user_id', 'name', 'published_at', 'updated_at'])
      .where('active', '=', yes)
      .orderBy('id')
      .execute()) as { id: string; user_id: string; name: string; published_at: unknown; updated_at: unknown }[];
    for (const flow of published) {
      const steps = (await db
        .selectFrom('steps')
        .selectAll()
        .where('flow_id', '=', flow.id)
        .orderBy('position')
        .orderBy('id')
        .execute()) as Record<string, unknown>[];
      const snapshot = steps.map((s) => ({
        id: s.id,
        type: s.type,
        appKey: s.app_key,
        key: s.key,
        name: s.name,
        position: s.position,
        status: s.status,
        parameters: typeof s.parameters === 'string' ? JSON.parse(s.parameters) : s.parameters,
        connectionId: s.connection_id,
        appVersion: s.app_version,
        continueOnFailure: Boolean(s.continue_on_failure),
      }));
      const id = randomUUID();
      await db
        .insertInto('flow_versions')
        .values({
          id,
          flow_id: flow.id,
          number: 1,
          message: null,
          published_by: flow.user_id,
          name: flow.name,
          steps: JSON.stringify(snapshot),
          created_at: flow.published_at ?? flow.updated_at,
        })
        .execute();
      await db
        .updateTable('flows')
        .set({ published_version_id: id, published_version_number: 1, draft_base_version_id: id, draft_changed: no })
        .where('id', '=', flow.id)
        .execute();
      await db
        .updateTable('executions')
        .set({ flow_version_id: id, flow_version_number: 1 })
        .where('flow_id', '=', flow.id)
        .where('test_run', '=', no)
        .where('status', 'in', ['running', 'waiting'])
        .execute();
    }
  },
};
