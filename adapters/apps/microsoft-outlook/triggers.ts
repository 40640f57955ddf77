import { graphNotificationTrigger } from '../microsoft-common/index.js';
import { pollingTrigger, segment } from '../sdk/index.js';
import { calendarId, eventsPath, folderId, folderPath, folderResource } from './folders.js';

/** Outlook messages live at most 4,230 minutes (under 3 days) per subscription: a margin below. */
const MESSAGE_SUBSCRIPTION_MINUTES = 4200;

export const newEmail = pollingTrigger({
  key: 'newEmail',
  name: 'New email',
  description: 'Starts a run for each email that arrives in a folder.',
  arguments: { folderId },
  request: (p) => ({
    path: `${folderPath(p.folderId)}/messages`,
    query: { $orderby: 'receivedDateTime desc', $top: 50 },
  }),
  items: 'value',
  id: (message) => message.id,
});

export const newEvent = pollingTrigger({
  key: 'newEvent',
  name: 'New event',
  description: 'Starts a run for each event created in a calendar.',
  arguments: { calendarId },
  request: (p) => ({
    path: eventsPath(p.calendarId),
    query: { $orderby: 'createdDateTime desc', $top: 50 },
  }),
  items: 'value',
  id: (event) => event.id,
});

export const newEmailInstant = graphNotificationTrigger({
  key: 'newEmailInstant',
  name: 'New email (instant)',
  description: 'Starts a run as soon as an email arrives in a folder (Graph change notifications).',
  arguments: { folderId },
  resource: (p) => folderResource(p.folderId),
  changeType: 'created',
  lifetimeMinutes: MESSAGE_SUBSCRIPTION_MINUTES,
  entry: (id) => `/me/messages/${segment(id)}`,
});
