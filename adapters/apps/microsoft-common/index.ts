/**
 * Shared by the Microsoft 365 apps (microsoft-excel, microsoft-outlook, microsoft-onedrive,
 * microsoft-teams); this folder is not an app and is not registered. It holds what is Microsoft
 * Graph's rather than one product's: the identity platform's OAuth2 definition, Graph's pages
 * (`@odata.nextLink`), drives (Excel workbooks live in OneDrive and SharePoint), and change
 * notifications (Graph subscriptions) as instant triggers.
 */
export { draftText, driveArgument, driveRoot, listDrives } from './drives.js';
export { GRAPH_API, type GraphPage, type GraphPagesLimits, graphLink, graphPages, odataString } from './graph.js';
export {
  type GraphNotificationTriggerOptions,
  type GraphSubscriptionHook,
  graphNotificationTrigger,
} from './notifications.js';
export { currentMicrosoftUser, microsoftOAuth2 } from './oauth.js';
