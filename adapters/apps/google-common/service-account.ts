import { googleServiceAccountAuth } from '../sdk/index.js';

/**
 * A Google service account, for the apps where one fits (a spreadsheet or a warehouse a bot
 * writes to): its JSON key signs in, with the app's scopes only (a service account has no
 * profile to read), and the connection is named after the key's client_email. It sees what is
 * shared with that address, or, with `subject`, a Workspace user's data (domain-wide delegation).
 */
export const googleServiceAccount = (scopes: readonly string[]) => googleServiceAccountAuth({ scopes });
