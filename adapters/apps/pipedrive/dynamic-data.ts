import type { DraftContext } from '../sdk/index.js';
import { listAll } from './api.js';

type Named = { readonly id: number | string; readonly name: string };

const options = (items: readonly Named[]) => items.map((item) => ({ name: item.name, value: String(item.id) }));

export const listUsers = async (ctx: DraftContext) =>
  options(
    (await listAll<Named & { active_flag: boolean }>(ctx.http, '/v1/users', {})).filter(
      (user) => user.active_flag !== false,
    ),
  );

export const listPersons = async (ctx: DraftContext) => options(await listAll<Named>(ctx.http, '/api/v2/persons', {}));

export const listOrganizations = async (ctx: DraftContext) =>
  options(await listAll<Named>(ctx.http, '/api/v2/organizations', {}));

export const listStages = async (ctx: DraftContext) => options(await listAll<Named>(ctx.http, '/api/v2/stages', {}));

/** The newest deals (a dropdown needs no more than 500). */
export const listDeals = async (ctx: DraftContext) => {
  const deals = await listAll<{ id: number; title: string }>(ctx.http, '/api/v2/deals', {
    sort_by: 'add_time',
    sort_direction: 'desc',
  });
  return deals.map((deal) => ({ name: deal.title, value: String(deal.id) }));
};

export const listLeads = async (ctx: DraftContext) => {
  const leads = await listAll<{ id: string; title: string }>(ctx.http, '/v1/leads', { sort: 'add_time DESC' });
  return leads.map((lead) => ({ name: lead.title, value: lead.id }));
};

export const listActivityTypes = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<{
    data: readonly { key_string: string; name: string; active_flag: boolean }[];
  }>({
    path: '/v1/activityTypes',
  });
  return data.data
    .filter((type) => type.active_flag !== false)
    .map((type) => ({ name: type.name, value: type.key_string }));
};

export const listCurrencies = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<{ data: readonly { code: string; name: string }[] }>({
    path: '/v1/currencies',
  });
  return data.data.map((currency) => ({ name: `${currency.name} (${currency.code})`, value: currency.code }));
};

export const listLeadLabels = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<{ data: readonly { id: string; name: string; color: string }[] }>({
    path: '/v1/leadLabels',
  });
  return data.data.map((label) => ({ name: `${label.name} (${label.color})`, value: label.id }));
};

interface Field {
  readonly field_code: string;
  readonly options?: readonly { readonly id: number; readonly label: string }[] | null;
}

/** The options of an entity's label field (API v2 calls it `label_ids`). */
const labelOptions = async (ctx: DraftContext, path: string) => {
  const fields = await listAll<Field>(ctx.http, path, {});
  const labels = fields.find((field) => field.field_code === 'label_ids' || field.field_code === 'label');
  return (labels?.options ?? []).map((option) => ({ name: option.label, value: String(option.id) }));
};

export const listPersonLabelField = (ctx: DraftContext) => labelOptions(ctx, '/api/v2/personFields');

export const listOrganizationLabelField = (ctx: DraftContext) => labelOptions(ctx, '/api/v2/organizationFields');
