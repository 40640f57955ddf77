import { fieldsAuth, text } from '../sdk/index.js';
import { mondayQuery } from './graphql.js';

/** A personal API token (Developers > My access tokens), sent as it is in `Authorization`, as monday wants. */
export const mondayAuth = fieldsAuth({
  fields: {
    apiToken: text({
      label: 'API token',
      required: true,
      secret: true,
      description: 'Your monday.com API token: avatar menu > Developers > My access tokens.',
    }),
  },
  headers: (data) => ({ authorization: data.apiToken }),
  async verify(ctx) {
    const { me } = await mondayQuery<{ me: { name?: string; email?: string } }>(
      ctx.http,
      'query { me { name email } }',
    );
    const screenName = [me.name, me.email].filter(Boolean).join(' @ ');
    return { screenName: screenName || null };
  },
});
