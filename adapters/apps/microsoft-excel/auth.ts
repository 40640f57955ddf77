import { microsoftOAuth2 } from '../microsoft-common/index.js';

/** Workbooks in the user's OneDrive and in SharePoint libraries (and the sites they follow, to list those). */
export const excelAuth = microsoftOAuth2(['Files.ReadWrite.All', 'Sites.Read.All']);
