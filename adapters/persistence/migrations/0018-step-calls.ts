import type { Kysely, Migration } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Calls a step makes on its way (an agent's model and tool calls): `execution_step_calls`, one row
 * per call in the order the step made them (`seq`), which a step run again after a crash or a
 * suspend reads instead of calling again; they go with their run.
 *
 * Conversation memory of agents (`agent_memories`): the last messages per agent and conversation
 * (`<flowId>:<key>`). No reference to the agent: agents are deleted softly, and their memory with
 * them is what a later hard delete removes.
 *
 * A signal may be meant for one waiting call only (`run_signals.target`: the approval of one tool
 * call of an agent): only a step asking for that target takes it, and a step waiting for any signal
 * of the kind never does.
 */
export const stepCalls: Migration = {
  async up(db: Kysely<any>) {
    const t = columnTypes(db);
    await db.schema
      .createTable('execution_step_calls')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('execution_id', 'text', (c) => c.notNull().references('executions.id').onDelete('cascade'))
      .addColumn('step_key', 'text', (c) => c.notNull())
      .addColumn('step_id', 'text', (c) => c.notNull())
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('input', t.json)
      .addColumn('output', t.json)
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('input_tokens', 'integer')
      .addColumn('output_tokens', 'integer')
      .addColumn('started_at', t.timestamp, (c) => c.notNull())
      .addColumn('finished_at', t.timestamp)
      .addUniqueConstraint('execution_step_calls_step_seq_unique', ['execution_id', 'step_key', 'seq'])
      .execute();

    await db.schema
      .createTable('agent_memories')
      .addColumn('agent_id', 'text', (c) => c.notNull())
      .addColumn('conversation', 'text', (c) => c.notNull())
      .addColumn('messages', t.json, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addPrimaryKeyConstraint('agent_memories_pk', ['agent_id', 'conversation'])
      .execute();

    await db.schema.alterTable('run_signals').addColumn('target', 'text').execute();
  },
};
