/**
 * Shared by the Google apps (google-sheets, gmail, google-drive, google-calendar, google-docs,
 * youtube, bigquery); this folder is not an app and is not registered. It holds what is Google's
 * rather than one API's: the OAuth2 definition and the service-account one, the API origins,
 * Drive's file lists (Sheets and Docs find their files through Drive), and Google's way of saying
 * "rate limited".
 */
export { DRIVE_UPLOAD_V3, DRIVE_V3, GOOGLE_APIS } from './apis.js';
export { textList } from './arguments.js';
export {
  byPageToken,
  createDriveFile,
  type DriveFile,
  driveArgument,
  driveFilesTrigger,
  driveScope,
  listDriveFiles,
  listDrives,
  MIME,
  quoted,
} from './drive.js';
export { currentGoogleUser, GOOGLE_AUTHORIZE_URL, GOOGLE_TOKEN_URL, googleOAuth2 } from './oauth.js';
export { isGoogleRateLimit, withGoogleRateLimits } from './rate-limits.js';
export { googleServiceAccount } from './service-account.js';
