import { defineTrigger, dropdown, dynamicDropdown, segment } from '../sdk/index.js';
import { audienceId } from './arguments.js';
import { mailchimpPages } from './lists.js';

interface OpenDetail {
  readonly email_id: string;
  readonly opens?: readonly { readonly timestamp: string }[];
}

/** When the member last opened it, in ms (0 when Mailchimp lists no open). */
const lastOpen = (member: OpenDetail) =>
  Math.max(0, ...(member.opens ?? []).map((open) => Date.parse(open.timestamp) || 0));

/** Mailchimp's reports may lag: each poll looks an hour further back than the last one started. */
const LOOK_BACK_MS = 60 * 60 * 1000;

export const emailOpened = defineTrigger({
  key: 'emailOpened',
  name: 'E-mail opened',
  description: 'Starts the flow when a recipient opens a campaign for the first time.',
  type: 'polling',
  arguments: {
    audienceId,
    campaignType: dropdown({
      label: 'Campaign type',
      required: true,
      default: 'campaign',
      options: [{ label: 'Campaign', value: 'campaign' }],
    }),
    campaignId: dynamicDropdown({
      label: 'Campaign',
      required: true,
      dynamicData: 'listCampaigns',
      dependsOn: ['audienceId'],
      acceptsVariables: true,
    }),
  },
  async run(ctx) {
    const cursor = `mailchimp:opens:${ctx.parameters.campaignId}`;
    const since = await ctx.store.get(cursor);
    const started = Date.now();
    const members = await mailchimpPages<OpenDetail>(
      ctx.http,
      {
        path: `/reports/${segment(ctx.parameters.campaignId)}/open-details`,
        query: typeof since === 'string' ? { since } : {},
      },
      'members',
      { count: 1000, maxItems: 10_000 },
    );
    await ctx.store.set(cursor, new Date(started - LOOK_BACK_MS).toISOString());
    // One run per recipient (the id is theirs in the campaign), the latest openers first.
    return members
      .map((member) => ({ member, at: lastOpen(member) }))
      .sort((a, b) => b.at - a.at)
      .map(({ member }) => ({ id: member.email_id, data: member }));
  },
});
