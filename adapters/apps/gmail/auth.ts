import { googleOAuth2 } from '../google-common/index.js';

/** Automatisch's scopes: compose (drafts, sending) and modify (labels, trash, reading). */
export const gmailAuth = googleOAuth2([
  'https://www.googleapis.com/auth/gmail.compose',
  'https://www.googleapis.com/auth/gmail.modify',
]);
