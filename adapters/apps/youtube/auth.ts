import { googleOAuth2 } from '../google-common/index.js';

/** Automatisch's scopes. */
export const youtubeAuth = googleOAuth2([
  'https://www.googleapis.com/auth/youtube',
  'https://www.googleapis.com/auth/youtube.readonly',
  'https://www.googleapis.com/auth/youtube.upload',
]);
