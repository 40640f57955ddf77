import { defineAction, text } from '../sdk/index.js';
import { bccs, bodyType, ccs, emailBody, from, fromName, signature, tos } from './arguments.js';
import { composed } from './compose.js';
import { ME } from './gmail.js';

export const createDraft = defineAction({
  key: 'createDraft',
  name: 'Create draft',
  description: 'Create a new draft email message.',
  arguments: {
    subject: text({ label: 'Subject', required: true, acceptsVariables: true }),
    tos: tos(false),
    ccs,
    bccs,
    from,
    fromName,
    bodyType,
    emailBody,
    signature,
  },
  async run(ctx) {
    const { data } = await ctx.http.request({
      method: 'POST',
      path: `${ME}/drafts`,
      body: { message: { raw: composed(ctx.parameters) } },
    });
    return data;
  },
});
