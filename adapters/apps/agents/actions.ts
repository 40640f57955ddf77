import { defineAction, dynamicDropdown, runOf, suspendUntil, TemporaryError, text } from '../sdk/index.js';

export const runAgent = defineAction({
  key: 'runAgent',
  name: 'Run agent',
  description:
    'Runs one of your agents with a prompt: it calls its model and tools until it has an answer, which is the output.',
  arguments: {
    agentId: dynamicDropdown({
      label: 'Agent',
      required: true,
      dynamicData: 'listAgents',
      description: 'The agent to run.',
    }),
    prompt: text({
      label: 'Prompt',
      required: true,
      acceptsVariables: true,
      description: 'The prompt or question sent to the agent.',
    }),
    conversationKey: text({
      label: 'Conversation key',
      acceptsVariables: true,
      description:
        'With the agent’s memory on: runs with the same key (in this flow) go on with one conversation, e.g. a chat id.',
    }),
  },
  async run(ctx) {
    const { agentId, prompt, conversationKey } = ctx.parameters;
    const outcome = await runOf(ctx).runAgent({ agentId, prompt, conversationKey: conversationKey ?? null });
    if (outcome.kind === 'success') return outcome.output;
    if (outcome.kind === 'suspend') return suspendUntil(outcome.until);
    const { failure } = outcome;
    if (!failure.retryable) throw new Error(failure.message);
    throw new TemporaryError(
      failure.message,
      failure.retryAfterMs === undefined ? {} : { retryAfterSeconds: Math.ceil(failure.retryAfterMs / 1000) },
    );
  },
});
