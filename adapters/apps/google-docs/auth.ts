import { googleOAuth2 } from '../google-common/index.js';

/** Automatisch's scopes: documents, and Drive to create, copy and list them. */
export const googleDocsAuth = googleOAuth2([
  'https://www.googleapis.com/auth/drive',
  'https://www.googleapis.com/auth/documents',
]);
