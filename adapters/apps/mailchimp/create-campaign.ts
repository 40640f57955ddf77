import { defineAction, dynamicDropdown, text } from '../sdk/index.js';
import { audienceId } from './arguments.js';

interface Campaign {
  readonly id: string;
}

export const createCampaign = defineAction({
  key: 'createCampaign',
  name: 'Create campaign',
  description: 'Creates a regular campaign draft for an audience (or a segment or tag of it), with its content.',
  arguments: {
    campaignName: text({ label: 'Campaign name', acceptsVariables: true }),
    audienceId,
    segmentOrTagId: dynamicDropdown({
      label: 'Segment or tag',
      description: 'None: the whole audience.',
      dynamicData: 'listSegmentsOrTags',
      dependsOn: ['audienceId'],
      acceptsVariables: true,
    }),
    emailSubject: text({ label: 'E-mail subject', required: true, acceptsVariables: true }),
    previewText: text({ label: 'Preview text', acceptsVariables: true }),
    fromName: text({ label: 'From name', required: true, acceptsVariables: true }),
    fromEmailAddress: text({ label: 'Reply-to address', required: true, acceptsVariables: true }),
    toName: text({ label: 'To name', description: 'Merge tags allowed, e.g. *|FNAME|*.', acceptsVariables: true }),
    templateId: dynamicDropdown({ label: 'Template', dynamicData: 'listTemplates', acceptsVariables: true }),
    emailContent: text({ label: 'Content (HTML)', acceptsVariables: true }),
  },
  check: (p) =>
    p.templateId && p.emailContent ? { emailContent: 'cannot be given with a template: choose one.' } : null,
  async run(ctx) {
    const p = ctx.parameters;
    const { data: campaign } = await ctx.http.request<Campaign>({
      method: 'POST',
      path: '/campaigns',
      body: {
        type: 'regular',
        recipients: {
          list_id: p.audienceId,
          ...(p.segmentOrTagId && { segment_opts: { saved_segment_id: Number(p.segmentOrTagId) } }),
        },
        settings: {
          subject_line: p.emailSubject,
          preview_text: p.previewText,
          title: p.campaignName,
          from_name: p.fromName,
          reply_to: p.fromEmailAddress,
          to_name: p.toName,
        },
      },
    });
    const content = p.templateId
      ? { template: { id: Number(p.templateId) } }
      : p.emailContent
        ? { html: p.emailContent }
        : null;
    if (content) {
      await ctx.http.request({
        method: 'PUT',
        path: `/campaigns/${encodeURIComponent(campaign.id)}/content`,
        body: content,
      });
    }
    return campaign;
  },
});
