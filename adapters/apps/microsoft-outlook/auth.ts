import { microsoftOAuth2 } from '../microsoft-common/index.js';

/** Read and send mail, and read and write calendars, of the signed-in user. */
export const outlookAuth = microsoftOAuth2(['Mail.ReadWrite', 'Mail.Send', 'Calendars.ReadWrite']);
