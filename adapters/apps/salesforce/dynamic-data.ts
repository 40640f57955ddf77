import type { DraftContext } from '../sdk/index.js';
import { API, sobjectPath } from './api.js';

interface Described {
  readonly name: string;
  readonly label: string;
}

/** The org's objects (Salesforce lists them all in one answer). */
export const listObjects = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<{ sobjects: readonly (Described & { queryable: boolean })[] }>({
    path: `${API}/sobjects`,
  });
  return data.sobjects
    .filter((object) => object.queryable)
    .map((object) => ({ name: object.label, value: object.name }));
};

/** The chosen object's fields (none until one is). */
export const listFields = async (ctx: DraftContext) => {
  const object = ctx.parameters.object;
  if (typeof object !== 'string' || !/^[A-Za-z][A-Za-z0-9_]*$/.test(object)) return [];
  const { data } = await ctx.http.request<{ fields: readonly Described[] }>({
    path: `${sobjectPath(object)}/describe`,
  });
  return data.fields.map((field) => ({ name: field.label, value: field.name }));
};
