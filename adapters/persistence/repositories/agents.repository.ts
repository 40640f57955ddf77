import { type Selectable, sql } from 'kysely';
import type {
  Agent,
  AgentExecution,
  AgentExecutionStatus,
  AgentLimits,
  AgentMemorySettings,
  AgentTool,
  AgentToolType,
} from '../../../core/domain/agent.js';
import type {
  AgentExecutionRepository,
  AgentRepository,
  AgentToolRepository,
} from '../../../ports/agent-repositories.js';
import type { Codec } from '../codec.js';
import type { AgentExecutionsTable, AgentsTable, AgentToolsTable } from '../schema.js';
import type { Executor } from './executor.js';
import { readNewestFirst } from './newest-first.js';

const agentFromRow = (codec: Codec, row: Selectable<AgentsTable>): Agent => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  description: row.description,
  instructions: row.instructions,
  connectionId: row.connection_id,
  model: row.model,
  temperature: row.temperature === null ? null : Number(row.temperature),
  limits: codec.readJson<AgentLimits>(row.limits),
  memory: codec.readJson<AgentMemorySettings>(row.memory),
  createdAt: codec.readTimestamp(row.created_at),
  updatedAt: codec.readTimestamp(row.updated_at),
});

export const createAgentRepository = ({ db, codec }: Executor): AgentRepository => {
  const live = () => db.selectFrom('agents').where('deleted_at', 'is', null);

  const findById = async (id: string) => {
    const row = await live().selectAll().where('id', '=', id).executeTakeFirst();
    return row ? agentFromRow(codec, row) : null;
  };

  return {
    async insert(agent) {
      const now = codec.timestamp(agent.now);
      const row = {
        id: agent.id,
        user_id: agent.userId,
        name: agent.name,
        description: agent.description,
        instructions: agent.instructions,
        connection_id: agent.connectionId,
        model: agent.model,
        temperature: agent.temperature,
        limits: codec.json(agent.limits),
        memory: codec.json(agent.memory),
        created_at: now,
        updated_at: now,
        deleted_at: null,
      };
      await db.insertInto('agents').values(row).execute();
      const { now: _, ...fields } = agent;
      return { ...fields, createdAt: codec.readTimestamp(now), updatedAt: codec.readTimestamp(now) };
    },

    findById,

    listByUser(userId, request) {
      return readNewestFirst(
        codec,
        request,
        () => live().where('user_id', '=', userId),
        (row: Selectable<AgentsTable>) => agentFromRow(codec, row),
      );
    },

    async update(id, changes, now) {
      await db
        .updateTable('agents')
        .set({
          ...(changes.name !== undefined && { name: changes.name }),
          ...(changes.description !== undefined && { description: changes.description }),
          ...(changes.instructions !== undefined && { instructions: changes.instructions }),
          ...(changes.connectionId !== undefined && { connection_id: changes.connectionId }),
          ...(changes.model !== undefined && { model: changes.model }),
          ...(changes.temperature !== undefined && { temperature: changes.temperature }),
          ...(changes.limits !== undefined && { limits: codec.json(changes.limits) }),
          ...(changes.memory !== undefined && { memory: codec.json(changes.memory) }),
          updated_at: codec.timestamp(now),
        })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .execute();
      return findById(id);
    },

    async delete(id, now) {
      await db.deleteFrom('agent_tools').where('agent_id', '=', id).execute();
      await db
        .updateTable('agents')
        .set({ deleted_at: codec.timestamp(now), updated_at: codec.timestamp(now) })
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .execute();
    },
  };
};

const toolFromRow = (codec: Codec, row: Selectable<AgentToolsTable>): AgentTool => ({
  id: row.id,
  agentId: row.agent_id,
  type: row.type as AgentToolType,
  appKey: row.app_key,
  connectionId: row.connection_id,
  actions: codec.readJson<string[]>(row.actions),
  flowId: row.flow_id,
  askFirst: codec.readJson<string[]>(row.ask_first),
  createdAt: codec.readTimestamp(row.created_at),
  updatedAt: codec.readTimestamp(row.updated_at),
});

export const createAgentToolRepository = ({ db, codec }: Executor): AgentToolRepository => ({
  async listByAgent(agentId) {
    const rows = await db
      .selectFrom('agent_tools')
      .selectAll()
      .where('agent_id', '=', agentId)
      // By app as Automatisch lists them, then flows (NULLs sort apart on the two databases).
      .orderBy(sql`app_key is null`)
      .orderBy('app_key')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => toolFromRow(codec, row));
  },

  async upsert(tool) {
    const now = codec.timestamp(tool.now);
    const fields = {
      type: tool.type,
      app_key: tool.type === 'flow' ? null : tool.appKey,
      connection_id: tool.connectionId,
      actions: codec.json(tool.actions),
      flow_id: tool.type === 'flow' ? tool.flowId : null,
      ask_first: codec.json(tool.askFirst),
      updated_at: now,
    };
    // One statement, so that two requests adding the same app at once leave one row: the one
    // there keeps its id and creation time and takes the new settings.
    const row = await db
      .insertInto('agent_tools')
      .values({ id: tool.id, agent_id: tool.agentId, ...fields, created_at: now })
      .onConflict((oc) =>
        oc.columns(tool.type === 'flow' ? ['agent_id', 'flow_id'] : ['agent_id', 'app_key']).doUpdateSet(fields),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toolFromRow(codec, row);
  },

  async delete(agentId, toolId) {
    const result = await db
      .deleteFrom('agent_tools')
      .where('agent_id', '=', agentId)
      .where('id', '=', toolId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  },
});

type Usage = AgentExecution['usage'];

const runFromRow = (codec: Codec, row: Selectable<AgentExecutionsTable>): AgentExecution => ({
  id: row.id,
  agentId: row.agent_id,
  executionId: row.execution_id,
  stepKey: row.step_key,
  prompt: row.prompt,
  output: row.output,
  status: row.status as AgentExecutionStatus,
  usage: codec.readJson<Usage>(row.usage),
  createdAt: codec.readTimestamp(row.created_at),
  updatedAt: codec.readTimestamp(row.updated_at),
  finishedAt: row.finished_at === null ? null : codec.readTimestamp(row.finished_at),
});

export const createAgentExecutionRepository = ({ db, codec }: Executor): AgentExecutionRepository => {
  const findByStep = async (executionId: string, stepKey: string) => {
    const row = await db
      .selectFrom('agent_executions')
      .selectAll()
      .where('execution_id', '=', executionId)
      .where('step_key', '=', stepKey)
      .executeTakeFirst();
    return row ? runFromRow(codec, row) : null;
  };

  return {
    async start(run) {
      const now = codec.timestamp(run.now);
      const usage: Usage = { inputTokens: 0, outputTokens: 0 };
      const values = {
        id: run.id,
        agent_id: run.agentId,
        execution_id: run.executionId,
        step_key: run.stepKey,
        prompt: run.prompt,
        output: null,
        status: 'running',
        usage: codec.json(usage),
        created_at: now,
        updated_at: now,
        finished_at: null,
      };
      if (run.executionId === null || run.stepKey === null) {
        await db.insertInto('agent_executions').values(values).execute();
        const { now: _, ...fields } = run;
        const at = codec.readTimestamp(now);
        return { ...fields, output: null, status: 'running', usage, createdAt: at, updatedAt: at, finishedAt: null };
      }
      await db
        .insertInto('agent_executions')
        .values(values)
        .onConflict((oc) => oc.columns(['execution_id', 'step_key']).doNothing())
        .execute();
      const stored = await findByStep(run.executionId, run.stepKey);
      if (!stored) throw new Error(`agent execution of step ${run.stepKey} vanished after it was started`);
      return stored;
    },

    async findById(id) {
      const row = await db.selectFrom('agent_executions').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? runFromRow(codec, row) : null;
    },

    findByStep,

    async update(id, changes, now) {
      await db
        .updateTable('agent_executions')
        .set({
          ...(changes.status !== undefined && { status: changes.status }),
          ...(changes.output !== undefined && { output: changes.output }),
          ...(changes.usage !== undefined && { usage: codec.json(changes.usage) }),
          ...(changes.finishedAt !== undefined && {
            finished_at: changes.finishedAt === null ? null : codec.timestamp(changes.finishedAt),
          }),
          updated_at: codec.timestamp(now),
        })
        .where('id', '=', id)
        .execute();
    },

    listByAgent(agentId, request) {
      return readNewestFirst(
        codec,
        request,
        () => db.selectFrom('agent_executions').where('agent_id', '=', agentId),
        (row: Selectable<AgentExecutionsTable>) => runFromRow(codec, row),
      );
    },
  };
};
