import { microsoftOAuth2 } from '../microsoft-common/index.js';

/** Files the user can reach (their OneDrive, shared ones, SharePoint libraries) and the sites they follow. */
export const onedriveAuth = microsoftOAuth2(['Files.ReadWrite.All', 'Sites.Read.All']);
