import { type AuthAccess, fieldsAuth, matches, segment, text } from '../sdk/index.js';

interface Guild {
  readonly id: string;
  readonly name: string;
}

/**
 * A bot's token and the server (guild) it works in. Discord's OAuth2 only adds a bot to a server;
 * the API is then called with the bot token, so the connection is the token itself.
 */
export const discordAuth = fieldsAuth({
  fields: {
    botToken: text({
      label: 'Bot token',
      required: true,
      secret: true,
      description: 'Discord Developer Portal, your application, "Bot", "Reset Token".',
    }),
    guildId: text({
      label: 'Server ID',
      description:
        'The server the bot was added to (Developer Mode on, right-click the server, "Copy Server ID"). Empty: the only server the bot is in.',
      check: matches(/^\d{15,25}$/, 'must be a server ID: digits only.'),
    }),
  },
  headers: (data) => ({ authorization: `Bot ${data.botToken}` }),
  async verify(ctx) {
    const { data: bot } = await ctx.http.request<{ username: string }>({ path: '/users/@me' });
    let guildId = ctx.auth.data.guildId;
    if (!guildId) {
      const { data: guilds } = await ctx.http.request<Guild[]>({ path: '/users/@me/guilds', query: { limit: 2 } });
      if (guilds.length !== 1) {
        throw new Error(
          guilds.length === 0
            ? 'The bot is in no server yet: add it to one with its installation link, then connect again.'
            : 'The bot is in several servers: enter the Server ID of the one to use.',
        );
      }
      guildId = guilds[0]?.id ?? '';
      await ctx.auth.set({ guildId });
    }
    const { data: guild } = await ctx.http.request<Guild>({ path: `/guilds/${segment(guildId)}` });
    return { screenName: `${bot.username} @ ${guild.name}` };
  },
});

/** The path of the connection's server, with `rest` after it. */
export const guildPath = (auth: Pick<AuthAccess, 'data'>, rest = '') => {
  const { guildId } = discordAuth.read(auth);
  if (!guildId) throw new Error('The Discord connection names no server: reconnect it.');
  return `/guilds/${segment(guildId)}${rest}`;
};
