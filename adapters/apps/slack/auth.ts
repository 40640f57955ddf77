import { oauth2Auth, text } from '../sdk/index.js';
import { callSlack } from './api.js';

/** What the app's bot may do: read channels and users, post (in any public channel, as itself or renamed), open DMs. */
const BOT_SCOPES = [
  'channels:read',
  'groups:read',
  'channels:history',
  'groups:history',
  'chat:write',
  'chat:write.public',
  'chat:write.customize',
  'im:write',
  'users:read',
  'users:read.email',
];

/** What the member who connects lends: posting and reading as them, and search, which bots cannot. */
const USER_SCOPES = ['chat:write', 'channels:history', 'groups:history', 'search:read'];

interface TokenAnswer {
  readonly authed_user?: { readonly id?: string; readonly access_token?: string };
  readonly bot_user_id?: string;
  readonly team?: { readonly id?: string; readonly name?: string };
}

/**
 * Slack's OAuth v2 ("Add to Slack"): one consent gives the bot token (the answer's `access_token`)
 * and the member's token (`authed_user.access_token`), which the connection keeps beside it.
 */
export const slackAuth = oauth2Auth({
  authorizeUrl: 'https://slack.com/oauth/v2/authorize',
  tokenUrl: 'https://slack.com/api/oauth.v2.access',
  scopes: BOT_SCOPES,
  scopeSeparator: ',',
  authorizeParams: { user_scope: USER_SCOPES.join(',') },
  clientFields: {
    signingSecret: text({
      label: 'Signing secret',
      secret: true,
      description:
        'The Slack app’s signing secret (Basic Information, App Credentials): the newEvent trigger checks deliveries with it.',
    }),
  },
  keepFromTokenAnswer: (answer) => {
    const { authed_user, bot_user_id, team } = answer as TokenAnswer;
    return {
      userAccessToken: authed_user?.access_token,
      userId: authed_user?.id,
      botUserId: bot_user_id,
      teamId: team?.id,
      teamName: team?.name,
    };
  },
  async profile(ctx) {
    // The member's name when they lent their token, else the bot's; with the workspace.
    const who = await callSlack<{ user?: string; team?: string }>(ctx, 'auth.test', { as: 'user' });
    return { screenName: [who.user, who.team].filter(Boolean).join(' @ ') || null };
  },
});
