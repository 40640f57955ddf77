import { googleOAuth2, googleServiceAccount } from '../google-common/index.js';

const SCOPES = ['https://www.googleapis.com/auth/drive', 'https://www.googleapis.com/auth/spreadsheets'];

/** Automatisch's scopes: the spreadsheets, and Drive to list and copy them. */
export const googleSheetsAuth = googleOAuth2(SCOPES);

/** The same scopes for a service account, which sees the spreadsheets shared with it. */
export const googleSheetsServiceAccountAuth = googleServiceAccount(SCOPES);
