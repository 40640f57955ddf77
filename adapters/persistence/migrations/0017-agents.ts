import { randomUUID } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Agents (Automatisch's `agents`, `agent_tools`, `agent_executions`): a user's model, instructions
 * and tools, and the runs of each. An agent is deleted softly (`deleted_at`, as Automatisch does)
 * so that its runs stay for the record; its tools go with it. A tool is one row per app or per
 * flow (unique: adding it again replaces it), and a flow's step runs its agent once (unique per
 * execution and step key; a test from the console has neither, and NULLs never collide).
 *
 * The permission subject `Agent` is new: the Admin role gets `read` and `manage` of it, as
 * Automatisch's seed gives them to its admins; other roles get it when an administrator says so.
 */
export const agents: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable('agents')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('instructions', 'text')
      .addColumn('connection_id', 'text', (c) => c.references('connections.id').onDelete('set null'))
      .addColumn('model', 'text')
      .addColumn('temperature', t.double)
      .addColumn('limits', t.json, (c) => c.notNull())
      .addColumn('memory', t.json, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addColumn('deleted_at', t.timestamp)
      .execute();
    await db.schema.createIndex('agents_user_created_index').on('agents').columns(['user_id', 'created_at']).execute();

    await db.schema
      .createTable('agent_tools')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('agent_id', 'text', (c) => c.notNull().references('agents.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('app_key', 'text')
      .addColumn('connection_id', 'text', (c) => c.references('connections.id').onDelete('set null'))
      .addColumn('actions', t.json, (c) => c.notNull())
      .addColumn('flow_id', 'text', (c) => c.references('flows.id').onDelete('cascade'))
      .addColumn('ask_first', t.json, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('agent_tools_agent_app_unique')
      .on('agent_tools')
      .columns(['agent_id', 'app_key'])
      .unique()
      .execute();
    await db.schema
      .createIndex('agent_tools_agent_flow_unique')
      .on('agent_tools')
      .columns(['agent_id', 'flow_id'])
      .unique()
      .execute();
    await db.schema.createIndex('agent_tools_flow_index').on('agent_tools').column('flow_id').execute();
    await db.schema.createIndex('agent_tools_connection_index').on('agent_tools').column('connection_id').execute();

    await db.schema
      .createTable('agent_executions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('agent_id', 'text', (c) => c.notNull().references('agents.id').onDelete('cascade'))
      .addColumn('execution_id', 'text', (c) => c.references('executions.id').onDelete('cascade'))
      .addColumn('step_key', 'text')
      .addColumn('prompt', 'text', (c) => c.notNull())
      .addColumn('output', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('usage', t.json, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addColumn('finished_at', t.timestamp)
      .execute();
    await db.schema
      .createIndex('agent_executions_step_unique')
      .on('agent_executions')
      .columns(['execution_id', 'step_key'])
      .unique()
      .execute();
    await db.schema
      .createIndex('agent_executions_agent_created_index')
      .on('agent_executions')
      .columns(['agent_id', 'created_at'])
      .execute();

    const now = new Date().toISOString();
    const admins = await db
      .selectFrom('roles')
      .select('id')
      .where('is_admin', '=', t.postgres ? true : 1)
      .execute();
    for (const { id } of admins as { id: string }[]) {
      await db
        .insertInto('permissions')
        .values(
          (['read', 'manage'] as const).map((action) => ({
            id: randomUUID(),
            role_id: id,
            action,
            subject: 'Agent',
            conditions: JSON.stringify([]),
            created_at: now,
            updated_at: now,
          })),
        )
        .execute();
    }
  },
};
