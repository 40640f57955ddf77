import { type HttpClient, matches, segment } from '../sdk/index.js';

/** The REST API version every call names. */
export const API = '/services/data/v62.0';

/** An object's or field's API name (`Account`, `Invoice__c`, `Email`): what SOQL and paths may hold. */
export const apiName = matches(/^[A-Za-z][A-Za-z0-9_]*$/, 'must be an API name such as Account or My_Field__c.');

/** A SOQL string literal's inside: backslashes and quotes escaped. */
export const soqlText = (value: string) => value.replace(/\\/g, '\\\\').replace(/'/g, "\\'");

/** The same for a LIKE pattern, whose `%` and `_` would otherwise be wildcards. */
export const soqlLikeText = (value: string) => soqlText(value).replace(/%/g, '\\%').replace(/_/g, '\\_');

export interface QueryResult<T = Record<string, unknown>> {
  readonly totalSize: number;
  readonly done: boolean;
  readonly records: readonly T[];
  readonly nextRecordsUrl?: string;
}

export const query = async <T = Record<string, unknown>>(http: HttpClient, soql: string) =>
  (await http.request<QueryResult<T>>({ path: `${API}/query`, query: { q: soql } })).data;

export const sobjectPath = (object: string, id?: string) =>
  `${API}/sobjects/${segment(object)}${id === undefined ? '' : `/${segment(id)}`}`;
