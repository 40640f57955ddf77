import { type DraftContext, type HttpClient, paginate, segment } from '../sdk/index.js';

interface Channel {
  readonly id: string;
  readonly name: string;
  readonly display_name?: string;
  readonly type: string;
  readonly team_id?: string;
}

/** Open (O), private (P) and group (G) channels have names; direct ones (D) are reached by user. */
const NAMED = ['O', 'P', 'G'];

/** The channels the account belongs to, across its teams (one answer: Mattermost does not page it). */
export const listChannels = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<Channel[]>({ path: '/users/me/channels' });
  return data
    .filter((channel) => NAMED.includes(channel.type))
    .map((channel) => ({ name: channel.display_name || channel.name || channel.id, value: channel.id }));
};

export const listTeams = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<{ id: string; display_name: string }[]>({ path: '/users/me/teams' });
  return data.map((team) => ({ name: team.display_name, value: team.id }));
};

/** Mattermost pages from 0; a page shorter than asked is the last. */
const PER_PAGE = 200;
const pages = { kind: 'page', items: '', param: 'page', first: 0, pageSize: PER_PAGE } as const;

export const listUsers = async (ctx: DraftContext) => {
  const users = await paginate<{ id: string; username: string; first_name?: string; last_name?: string }>(
    ctx.http,
    { path: '/users', query: { per_page: PER_PAGE, active: true } },
    pages,
    { maxItems: 5000, maxPages: 25 },
  );
  return users.map((user) => {
    const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
    return { name: name ? `${name} (@${user.username})` : `@${user.username}`, value: user.id };
  });
};

/** A team's public channels, every page. */
export const teamChannels = (http: HttpClient, team: string) =>
  paginate<Channel & { readonly create_at: number }>(
    http,
    { path: `/teams/${segment(team)}/channels`, query: { per_page: PER_PAGE } },
    pages,
  );
