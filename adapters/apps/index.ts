import { branches } from './branches/index.js';
import { codeApp, createCodeApp } from './code/index.js';
import { datastore } from './datastore/index.js';
import { delay } from './delay/index.js';
import { filter } from './filter/index.js';
import { flows } from './flows/index.js';
import { formatter } from './formatter/index.js';
import { forms } from './forms/index.js';
import { github } from './github/index.js';
import { httpRequest } from './http-request/index.js';
import { imap } from './imap/index.js';
import { loop } from './loop/index.js';
import { mqtt } from './mqtt/index.js';
import { mysqlApp } from './mysql/index.js';
import { nats } from './nats/index.js';
import { postgresql } from './postgresql/index.js';
import { rabbitmq } from './rabbitmq/index.js';
import { redis } from './redis/index.js';
import { rss } from './rss/index.js';
import { scheduler } from './scheduler/index.js';
import type { App } from './sdk/index.js';
import { smtp } from './smtp/index.js';
import { wait } from './wait/index.js';
import { webhook } from './webhook/index.js';

/** Every app this instance offers. A new integration is added here, and nowhere else. */
export const builtInApps: readonly App[] = [
  branches,
  codeApp,
  datastore,
  delay,
  filter,
  flows,
  formatter,
  forms,
  github,
  httpRequest,
  imap,
  loop,
  mqtt,
  mysqlApp,
  nats,
  postgresql,
  rabbitmq,
  redis,
  rss,
  scheduler,
  smtp,
  wait,
  webhook,
];

export {
  type AppCatalogOptions,
  type ConnectionUse,
  createAppCatalog,
  type DraftRun,
  type InProcessAppCatalog,
  type StepRun,
} from './app-catalog.js';
export type { App } from './sdk/index.js';

/** The built-in apps with the code app's pool of worker threads sized for this instance. */
export const builtInAppsWith = ({
  codeWorkers,
  codeWorkersPerFlow,
}: {
  readonly codeWorkers?: number | null;
  readonly codeWorkersPerFlow?: number | null;
}): readonly App[] =>
  codeWorkers || codeWorkersPerFlow
    ? builtInApps.map((app) =>
        app.key === codeApp.key
          ? createCodeApp(
              {},
              {
                ...(codeWorkers && { size: codeWorkers }),
                ...(codeWorkersPerFlow && { maxPerGroup: codeWorkersPerFlow }),
              },
            )
          : app,
      )
    : builtInApps;
