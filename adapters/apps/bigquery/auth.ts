import { googleOAuth2, googleServiceAccount } from '../google-common/index.js';

/** BigQuery's scope: datasets, tables, jobs and data, read and written. */
const SCOPES = ['https://www.googleapis.com/auth/bigquery'];

export const bigqueryAuth = googleOAuth2(SCOPES);

/** A service account, BigQuery's usual identity for pipelines: roles granted to it in the project. */
export const bigqueryServiceAccountAuth = googleServiceAccount(SCOPES);
