import { fieldsAuth, text } from '../sdk/index.js';
import { linearGraphql } from './graphql.js';

/** A Linear personal API key, sent as it is in `Authorization` (OAuth tokens take `Bearer`, keys not). */
export const linearAuth = fieldsAuth({
  fields: {
    apiKey: text({
      label: 'API key',
      required: true,
      secret: true,
      description: 'Settings, Account, Security & access, Personal API keys.',
    }),
  },
  headers: (data) => ({ authorization: data.apiKey }),
  async verify(ctx) {
    const { viewer } = await linearGraphql<{ viewer: { name: string; email?: string } }>(
      ctx,
      'query { viewer { id name email } }',
    );
    return { screenName: viewer.email ?? viewer.name };
  },
});
