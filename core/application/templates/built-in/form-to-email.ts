import type { BuiltInTemplate } from './built-in-template.js';

export const formToEmail: BuiltInTemplate = {
  key: 'form-to-email',
  name: 'E-mail each form submission',
  description: 'Sends an e-mail with the answers whenever someone submits one of your forms.',
  flowData: {
    id: 'form-to-email',
    name: 'E-mail each form submission',
    steps: [
      {
        id: 'submission',
        type: 'trigger',
        position: 1,
        appKey: 'forms',
        key: 'newFormSubmission',
        name: 'A form is submitted',
        parameters: { formId: '' },
        webhookPath: null,
      },
      {
        id: 'email',
        type: 'action',
        position: 2,
        appKey: 'smtp',
        key: 'sendEmail',
        name: 'E-mail the answers',
        parameters: {
          to: '',
          subject: 'New form submission',
          body: 'A form was submitted:\n\n{{step.submission}}',
        },
        webhookPath: null,
      },
    ],
  },
};
