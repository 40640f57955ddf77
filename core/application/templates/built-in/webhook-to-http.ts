import type { BuiltInTemplate } from './built-in-template.js';

export const webhookToHttp: BuiltInTemplate = {
  key: 'webhook-to-http',
  name: 'Forward webhooks to an HTTP endpoint',
  description: 'Catches a webhook and sends its body on to a URL of your choice.',
  flowData: {
    id: 'webhook-to-http',
    name: 'Forward webhooks to an HTTP endpoint',
    steps: [
      {
        id: 'trigger',
        type: 'trigger',
        position: 1,
        appKey: 'webhook',
        key: 'catchRawWebhook',
        name: 'Catch the webhook',
        parameters: {},
        webhookPath: null,
      },
      {
        id: 'forward',
        type: 'action',
        position: 2,
        appKey: 'http-request',
        key: 'customRequest',
        name: 'Forward the body',
        parameters: { method: 'POST', url: '', headers: [], data: '{{step.trigger.body}}' },
        webhookPath: null,
      },
    ],
  },
};
