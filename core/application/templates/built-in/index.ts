import type { BuiltInTemplate } from './built-in-template.js';
import { formToEmail } from './form-to-email.js';
import { scheduledFetch } from './scheduled-fetch.js';
import { webhookPaths } from './webhook-paths.js';
import { webhookToHttp } from './webhook-to-http.js';

export type { BuiltInTemplate } from './built-in-template.js';

/** The gallery's order: the simplest flow first. */
export const BUILT_IN_TEMPLATES: readonly BuiltInTemplate[] = [
  webhookToHttp,
  scheduledFetch,
  webhookPaths,
  formToEmail,
];
