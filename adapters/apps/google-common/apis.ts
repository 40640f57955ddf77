/**
 * Where Google's REST APIs live, as their references name each service endpoint. An app's own
 * API is its base URL; the others it calls are its `http.relatedApis`, so that the connection's
 * token reaches them and `APP_BASE_URL_<KEY>` moves them all to one fake or proxy.
 */
export const GOOGLE_APIS = {
  /** Drive v3 (`/drive/v3`), Calendar v3 (`/calendar/v3`) and YouTube Data v3 (`/youtube/v3`). */
  www: 'https://www.googleapis.com',
  people: 'https://people.googleapis.com',
  sheets: 'https://sheets.googleapis.com',
  docs: 'https://docs.googleapis.com',
  gmail: 'https://gmail.googleapis.com',
  bigquery: 'https://bigquery.googleapis.com',
} as const;

/** Drive's files and drives, which Sheets, Docs and Drive list alike. */
export const DRIVE_V3 = `${GOOGLE_APIS.www}/drive/v3`;

/** Drive's uploads: metadata and content in one request. */
export const DRIVE_UPLOAD_V3 = `${GOOGLE_APIS.www}/upload/drive/v3`;
