import { type DraftContext, paginate, segment } from '../sdk/index.js';

interface Owner {
  readonly id: string;
  readonly email?: string;
  readonly firstName?: string;
  readonly lastName?: string;
}

/** The account's owners (users who may own records), every page (`after` cursors). */
export const listOwners = async (ctx: DraftContext) => {
  const owners = await paginate<Owner>(
    ctx.http,
    { path: '/crm/v3/owners', query: { limit: 100 } },
    { kind: 'cursor', items: (data) => data.results, next: (data) => data.paging?.next?.after, param: 'after' },
  );
  return owners.map((owner) => {
    const name = [owner.firstName, owner.lastName].filter(Boolean).join(' ');
    return {
      name: name && owner.email ? `${name} (${owner.email})` : name || owner.email || owner.id,
      value: owner.id,
    };
  });
};

interface Labelled {
  readonly id: string;
  readonly label: string;
}

export const listPipelines = async (ctx: DraftContext) => {
  const { data } = await ctx.http.request<{ results: readonly Labelled[] }>({ path: '/crm/v3/pipelines/deals' });
  return data.results.map((pipeline) => ({ name: pipeline.label, value: pipeline.id }));
};

/** The stages of the pipeline chosen in the step (none until one is). */
export const listDealStages = async (ctx: DraftContext) => {
  const pipeline = ctx.parameters.pipeline;
  if (typeof pipeline !== 'string' || pipeline === '') return [];
  const { data } = await ctx.http.request<{ results: readonly Labelled[] }>({
    path: `/crm/v3/pipelines/deals/${segment(pipeline)}/stages`,
  });
  return data.results.map((stage) => ({ name: stage.label, value: stage.id }));
};
