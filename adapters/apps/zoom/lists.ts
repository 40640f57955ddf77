import {
  type DraftContext,
  type DynamicOption,
  dynamicDropdown,
  type HttpClient,
  type Pagination,
  paginate,
} from '../sdk/index.js';

/** Zoom's lists: `page_size` up to 300, and `next_page_token` until it is empty. */
export const zoomList = <T>(
  http: HttpClient,
  path: string,
  items: string,
  query: Readonly<Record<string, string | number>> = {},
): Promise<T[]> => {
  const pages: Pagination = { kind: 'cursor', items, next: 'next_page_token', param: 'next_page_token' };
  return paginate<T>(http, { path, query: { page_size: 300, ...query } }, pages);
};

export const meetingId = dynamicDropdown({
  label: 'Meeting',
  required: true,
  description: 'A meeting with registration on.',
  dynamicData: 'listMeetings',
});

export const webinarId = dynamicDropdown({ label: 'Webinar', required: true, dynamicData: 'listWebinars' });

interface Session {
  readonly id: number | string;
  readonly topic?: string;
  readonly start_time?: string;
}

const options = (sessions: readonly Session[]): DynamicOption[] =>
  sessions.map((session) => ({
    name: session.start_time
      ? `${session.topic ?? session.id} (${session.start_time})`
      : (session.topic ?? String(session.id)),
    value: String(session.id),
  }));

/** Dynamic data `listMeetings`: the user's upcoming meetings, every page. */
export const listMeetings = async (ctx: DraftContext): Promise<DynamicOption[]> =>
  options(await zoomList<Session>(ctx.http, '/users/me/meetings', 'meetings', { type: 'upcoming' }));

/** Dynamic data `listWebinars`: the user's webinars, every page. */
export const listWebinars = async (ctx: DraftContext): Promise<DynamicOption[]> =>
  options(await zoomList<Session>(ctx.http, '/users/me/webinars', 'webinars'));
