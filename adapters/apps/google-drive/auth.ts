import { googleOAuth2 } from '../google-common/index.js';

/** Automatisch's scope: the whole Drive. */
export const googleDriveAuth = googleOAuth2(['https://www.googleapis.com/auth/drive']);
