import { codeApp } from './code/index.js';
import { filter } from './filter/index.js';
import { formatter } from './formatter/index.js';
import { github } from './github/index.js';
import { httpRequest } from './http-request/index.js';
import { postgresql } from './postgresql/index.js';
import { rss } from './rss/index.js';
import type { App } from './sdk/index.js';
import { smtp } from './smtp/index.js';

/** Every app this instance offers. A new integration is added here, and nowhere else. */
export const builtInApps: readonly App[] = [codeApp, filter, formatter, github, httpRequest, postgresql, rss, smtp];

export {
  type AppCatalogOptions,
  type AppRuntime,
  type ConnectionUse,
  createAppCatalog,
  type DraftRun,
  type StepRun,
} from './registry.js';
export type { App } from './sdk/index.js';
