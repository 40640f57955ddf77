import type { AgentMemoryRepository } from '../../../ports/agent-repositories.js';
import type { Executor } from './executor.js';

/** Conversations of agents: one row per agent and conversation, its last messages as JSON. */
export const createAgentMemoryRepository = ({ db, codec }: Executor): AgentMemoryRepository => ({
  async read(agentId, conversation) {
    const row = await db
      .selectFrom('agent_memories')
      .select('messages')
      .where('agent_id', '=', agentId)
      .where('conversation', '=', conversation)
      .executeTakeFirst();
    const messages = row ? codec.readJson<unknown>(row.messages) : [];
    return Array.isArray(messages) ? messages : [];
  },

  async write(agentId, conversation, messages, max, now) {
    const kept = codec.json(max > 0 ? messages.slice(-max) : []);
    const at = codec.timestamp(now);
    await db
      .insertInto('agent_memories')
      .values({ agent_id: agentId, conversation, messages: kept, updated_at: at })
      .onConflict((oc) => oc.columns(['agent_id', 'conversation']).doUpdateSet({ messages: kept, updated_at: at }))
      .execute();
  },
});
