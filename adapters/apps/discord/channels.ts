import type { DraftContext } from '../sdk/index.js';
import { guildPath } from './auth.js';

interface Channel {
  readonly id: string;
  readonly name: string;
  readonly type: number;
  readonly position?: number;
}

/** Discord's channel types: text 0, voice 2, announcement 5, stage 13. */
const TEXT = [0, 5];
const VOICE = [2, 13];

/** The server's channels of the given types, in the order Discord shows them (one answer: the list is not paged). */
const channelsOf = (types: readonly number[]) => async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<Channel[]>({ path: guildPath(ctx.auth, '/channels') });
  return data
    .filter((channel) => types.includes(channel.type))
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
    .map((channel) => ({ name: channel.name, value: channel.id }));
};

/**
 * The channels a step can use: a scheduled event's (its `entityType` given) takes place in a voice
 * or stage channel, a message goes to a text or announcement one.
 */
export const listChannels = (ctx: DraftContext) => {
  const type = ctx.parameters.entityType;
  return channelsOf(type === undefined || type === null || type === '' ? TEXT : VOICE)(ctx);
};

export const listScheduledEvents = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<{ id: string; name: string }[]>({
    path: guildPath(ctx.auth, '/scheduled-events'),
  });
  return data.map((event) => ({ name: event.name, value: event.id }));
};

/** Snowflakes grow with time: the newest first. */
export const newestFirst = <T extends { readonly id: string }>(items: readonly T[]): T[] =>
  [...items].sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0));
