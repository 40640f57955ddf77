import * as v from 'valibot';
import { defineAction, dynamicDropdown, json, text } from '../sdk/index.js';
import { parseAddress, parseAddresses } from './addresses.js';

const ADDRESSES = 'Separated by commas: ann@x.test, Bob <bob@x.test>.';

export const sendEmail = defineAction({
  key: 'sendEmail',
  name: 'Send e-mail',
  description: 'Sends an e-mail, written here or from a dynamic template; returns the message id.',
  arguments: {
    fromEmail: text({
      label: 'From address',
      required: true,
      description: 'A verified sender.',
      acceptsVariables: true,
    }),
    fromName: text({ label: 'From name', acceptsVariables: true }),
    to: text({ label: 'To', required: true, description: ADDRESSES, acceptsVariables: true }),
    cc: text({ label: 'Cc', description: ADDRESSES, acceptsVariables: true }),
    bcc: text({ label: 'Bcc', description: ADDRESSES, acceptsVariables: true }),
    replyTo: text({ label: 'Reply to', acceptsVariables: true }),
    subject: text({
      label: 'Subject',
      description: 'Not needed with a template that has one.',
      acceptsVariables: true,
    }),
    textContent: text({ label: 'Text', acceptsVariables: true }),
    htmlContent: text({ label: 'HTML', acceptsVariables: true }),
    templateId: dynamicDropdown({ label: 'Dynamic template', dynamicData: 'listTemplates', acceptsVariables: true }),
    templateData: json({
      label: 'Template data',
      description: 'A JSON object the template reads ({{name}}...).',
      schema: v.record(v.string(), v.unknown(), 'must be a JSON object.'),
    }),
  },
  check: (p): Record<string, string> | null => {
    if (parseAddresses(p.to).length === 0) return { to: 'must name at least one address.' };
    if (p.templateId) return null;
    if (!p.textContent && !p.htmlContent) return { textContent: 'or HTML is required without a template.' };
    return p.subject ? null : { subject: 'is required without a template.' };
  },
  async run(ctx) {
    const p = ctx.parameters;
    const cc = parseAddresses(p.cc);
    const bcc = parseAddresses(p.bcc);
    const content = [
      // SendGrid wants the plain text first.
      ...(p.textContent ? [{ type: 'text/plain', value: p.textContent }] : []),
      ...(p.htmlContent ? [{ type: 'text/html', value: p.htmlContent }] : []),
    ];
    const response = await ctx.http.request({
      method: 'POST',
      path: '/mail/send',
      body: {
        personalizations: [
          {
            to: parseAddresses(p.to),
            ...(cc.length > 0 && { cc }),
            ...(bcc.length > 0 && { bcc }),
            ...(p.templateData && { dynamic_template_data: p.templateData }),
          },
        ],
        from: { email: p.fromEmail.trim(), ...(p.fromName && { name: p.fromName }) },
        ...(p.replyTo && { reply_to: parseAddress(p.replyTo) }),
        ...(p.subject && { subject: p.subject }),
        ...(content.length > 0 && { content }),
        ...(p.templateId && { template_id: p.templateId }),
      },
    });
    // 202: queued for delivery; the answer has no body, only the message's id.
    return { messageId: response.headers['x-message-id'] ?? null, status: response.status };
  },
});
