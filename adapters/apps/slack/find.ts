import { defineAction, dropdown, text } from '../sdk/index.js';
import { callSlack, SlackError, userToken } from './api.js';

export const findMessage = defineAction({
  key: 'findMessage',
  name: 'Find a message',
  description: 'Finds the message that best matches a Slack search, as the member who connected Slack.',
  arguments: {
    query: text({
      label: 'Search Query',
      required: true,
      acceptsVariables: true,
      description: 'What Slack’s search box takes: words, in:#channel, from:@someone, before:2025-01-31...',
    }),
    sortBy: dropdown({
      label: 'Sort by',
      required: true,
      default: 'score',
      acceptsVariables: true,
      options: [
        { label: 'Match strength', value: 'score' },
        { label: 'Message date time', value: 'timestamp' },
      ],
    }),
    sortDirection: dropdown({
      label: 'Sort direction',
      required: true,
      default: 'desc',
      acceptsVariables: true,
      options: [
        { label: 'Descending (newest or best match first)', value: 'desc' },
        { label: 'Ascending (oldest or worst match first)', value: 'asc' },
      ],
    }),
  },
  async run(ctx) {
    // Slack lets members search, never bots.
    if (!userToken(ctx.auth)) throw new Error('Searching Slack needs a member’s token: connect Slack again.');
    const answer = await callSlack<{ messages?: { matches?: unknown[] } }>(ctx, 'search.messages', {
      query: {
        query: ctx.parameters.query,
        sort: ctx.parameters.sortBy,
        sort_dir: ctx.parameters.sortDirection,
        count: 1,
      },
      as: 'user',
    });
    return answer.messages?.matches?.[0] ?? null;
  },
});

export const findUserByEmail = defineAction({
  key: 'findUserByEmail',
  name: 'Find user by email',
  description: 'Finds a member of the workspace by their email address.',
  arguments: {
    email: text({ label: 'Email', required: true, acceptsVariables: true }),
  },
  async run(ctx) {
    try {
      const answer = await callSlack<{ user: unknown }>(ctx, 'users.lookupByEmail', {
        query: { email: ctx.parameters.email.trim() },
      });
      return answer.user;
    } catch (error) {
      // No member has that address: an answer, not a failure.
      if (error instanceof SlackError && error.code === 'users_not_found') return null;
      throw error;
    }
  },
});
