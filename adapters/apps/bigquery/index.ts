import { GOOGLE_APIS, withGoogleRateLimits } from '../google-common/index.js';
import { type AuthDefinition, defineApp } from '../sdk/index.js';
import { insertRows, runQueryAction } from './actions.js';
import { bigqueryAuth, bigqueryServiceAccountAuth } from './auth.js';
import { listColumns, listDatasets, listProjects, listTables } from './dynamic-data.js';
import { icon } from './icon.js';
import { newRows, newTables } from './triggers.js';

const bigqueryApp = (variant: { key: string; name: string; description: string; auth: AuthDefinition }) =>
  withGoogleRateLimits(
    defineApp({
      ...variant,
      icon,
      primaryColor: '#4386fa',
      categories: ['data-and-databases'],
      version: 1,
      triggers: [newRows, newTables],
      actions: [insertRows, runQueryAction],
      dynamicData: { listProjects, listDatasets, listTables, listColumns },
      http: { baseUrl: GOOGLE_APIS.bigquery, relatedApis: [GOOGLE_APIS.people] },
    }),
  );

export const bigquery = bigqueryApp({
  key: 'bigquery',
  name: 'BigQuery',
  description: 'Insert rows and run queries in Google BigQuery; start flows from new rows and tables.',
  auth: bigqueryAuth,
});

/** The same app signed in as a service account, with the roles granted to it in the project. */
export const bigqueryServiceAccount = bigqueryApp({
  key: 'bigquery-service-account',
  name: 'BigQuery Service Account',
  description: 'BigQuery as a service account: grant it BigQuery roles in the project.',
  auth: bigqueryServiceAccountAuth,
});
