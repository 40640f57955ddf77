import { type DraftContext, type HttpClient, type HttpRequest, paginate } from '../sdk/index.js';

/**
 * Every page of a Mailchimp collection (`count`, at most 1,000, and `offset`), up to `maxItems`
 * (the SDK's 1,000 for a dropdown): `key` names the answer's list (`lists`, `campaigns`...), and
 * a short page is the last.
 */
export const mailchimpPages = <T>(
  http: HttpClient,
  request: HttpRequest,
  key: string,
  { count = 500, maxItems }: { readonly count?: number; readonly maxItems?: number } = {},
) =>
  paginate<T>(
    http,
    { ...request, query: { ...request.query, count } },
    { kind: 'offset', items: (data: Record<string, readonly T[]>) => data[key], param: 'offset', pageSize: count },
    maxItems === undefined ? {} : { maxItems },
  );

const newestFirst = (field: string) => ({ sort_field: field, sort_dir: 'DESC' });

export const listAudiences = async (ctx: DraftContext) => {
  const lists = await mailchimpPages<{ id: string; name: string }>(
    ctx.http,
    { path: '/lists', query: newestFirst('date_created') },
    'lists',
  );
  return lists.map((list) => ({ name: list.name, value: list.id }));
};

interface Campaign {
  readonly id: string;
  readonly settings?: { readonly title?: string; readonly subject_line?: string };
}

export const listCampaigns = async (ctx: DraftContext) => {
  const audienceId = ctx.parameters.audienceId;
  const campaigns = await mailchimpPages<Campaign>(
    ctx.http,
    {
      path: '/campaigns',
      query: { ...newestFirst('create_time'), ...(typeof audienceId === 'string' && { list_id: audienceId }) },
    },
    'campaigns',
  );
  return campaigns.map((campaign) => ({
    name: campaign.settings?.title || campaign.settings?.subject_line || `Campaign ${campaign.id}`,
    value: campaign.id,
  }));
};

/** Segments of the audience, tags included: Mailchimp keeps a tag as a static segment. */
export const listSegmentsOrTags = async (ctx: DraftContext) => {
  const audienceId = ctx.parameters.audienceId;
  if (typeof audienceId !== 'string' || audienceId === '') return [];
  const segments = await mailchimpPages<{ id: number; name: string }>(
    ctx.http,
    { path: `/lists/${encodeURIComponent(audienceId)}/segments` },
    'segments',
  );
  return segments.map((segment) => ({ name: segment.name, value: String(segment.id) }));
};

export const listTemplates = async (ctx: DraftContext) => {
  const templates = await mailchimpPages<{ id: number; name: string }>(
    ctx.http,
    { path: '/templates', query: newestFirst('date_created') },
    'templates',
  );
  return templates.map((template) => ({ name: template.name, value: String(template.id) }));
};
