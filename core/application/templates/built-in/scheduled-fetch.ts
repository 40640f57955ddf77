import type { BuiltInTemplate } from './built-in-template.js';

export const scheduledFetch: BuiltInTemplate = {
  key: 'scheduled-fetch',
  name: 'Fetch a URL every hour and keep the answer',
  description: 'Every hour, reads a URL and stores its answer in the flow’s datastore for the next runs.',
  flowData: {
    id: 'scheduled-fetch',
    name: 'Fetch a URL every hour and keep the answer',
    steps: [
      {
        id: 'schedule',
        type: 'trigger',
        position: 1,
        appKey: 'scheduler',
        key: 'everyHour',
        name: 'Every hour',
        parameters: { triggersOnWeekend: true },
        webhookPath: null,
      },
      {
        id: 'fetch',
        type: 'action',
        position: 2,
        appKey: 'http-request',
        key: 'customRequest',
        name: 'Fetch the URL',
        parameters: { method: 'GET', url: '', headers: [] },
        webhookPath: null,
      },
      {
        id: 'keep',
        type: 'action',
        position: 3,
        appKey: 'datastore',
        key: 'setValue',
        name: 'Keep the answer',
        parameters: { key: 'last-answer', value: '{{step.fetch.body}}' },
        webhookPath: null,
      },
    ],
  },
};
