import { graphPages, odataString } from '../microsoft-common/index.js';
import { type DraftContext, type DynamicOption, dynamicDropdown, segment } from '../sdk/index.js';

export const folderId = dynamicDropdown({
  label: 'Folder',
  description: 'The mail folder. Empty: the Inbox.',
  dynamicData: 'listMailFolders',
});

export const calendarId = dynamicDropdown({
  label: 'Calendar',
  description: 'Empty: your default calendar.',
  dynamicData: 'listCalendars',
});

/** A mail folder in Graph's paths: its id, or the well-known name `inbox`. */
export const folderPath = (folder: string | undefined) => `/me/mailFolders/${segment(folder ?? 'inbox')}`;

/** The same folder as a subscription's resource, which names it in OData's key syntax. */
export const folderResource = (folder: string | undefined) =>
  `me/mailFolders(${odataString(folder ?? 'inbox')})/messages`;

/** A calendar's events: the chosen calendar's, or the default calendar's (`/me/events`). */
export const eventsPath = (calendar: string | undefined) =>
  calendar ? `/me/calendars/${segment(calendar)}/events` : '/me/events';

interface Folder {
  readonly id: string;
  readonly displayName?: string;
  readonly childFolderCount?: number;
}

/** How many folders with subfolders are opened: one request each. */
const OPENED_PARENTS = 20;

/** Dynamic data `listMailFolders`: the top-level folders, and the subfolders of those that have some. */
export const listMailFolders = async (ctx: DraftContext): Promise<DynamicOption[]> => {
  const top = await graphPages<Folder>(ctx.http, { path: '/me/mailFolders', query: { $top: 100 } });
  const options: DynamicOption[] = [];
  let opened = 0;
  for (const folder of top) {
    const name = folder.displayName ?? folder.id;
    options.push({ name, value: folder.id });
    if ((folder.childFolderCount ?? 0) === 0 || opened++ >= OPENED_PARENTS) continue;
    const children = await graphPages<Folder>(ctx.http, {
      path: `/me/mailFolders/${segment(folder.id)}/childFolders`,
      query: { $top: 100 },
    });
    options.push(...children.map((child) => ({ name: `${name} / ${child.displayName ?? child.id}`, value: child.id })));
  }
  return options;
};

/** Dynamic data `listCalendars`: the user's calendars, every page. */
export const listCalendars = async (ctx: DraftContext): Promise<DynamicOption[]> =>
  (await graphPages<{ id: string; name?: string }>(ctx.http, { path: '/me/calendars' })).map((calendar) => ({
    name: calendar.name ?? calendar.id,
    value: calendar.id,
  }));
