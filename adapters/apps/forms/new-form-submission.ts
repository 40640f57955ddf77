import { boolean, defineTrigger, dynamicDropdown, httpUrl, text } from '../sdk/index.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Automatisch's trigger, key for key. The form's page (`/forms/:formId`) hands the answers to every
 * flow whose trigger names the form; a JSON post to the flow's own webhook address works too, as
 * Automatisch's page sends it.
 */
export const newFormSubmission = defineTrigger({
  key: 'newFormSubmission',
  name: 'New form submission',
  description: 'Starts the flow with the answers of each submission of a form.',
  type: 'webhook',
  arguments: {
    formId: dynamicDropdown({
      label: 'Form',
      required: true,
      dynamicData: 'listForms',
      description: 'The form whose answers start the flow.',
    }),
    workSynchronously: boolean({
      label: 'Wait until the flow is done',
      default: true,
      description: 'The visitor waits for the flow, and sees its "Respond with" answer.',
    }),
    asyncRedirectUrl: text({
      label: 'Redirect URL when not waiting',
      check: httpUrl,
      description:
        'Where the visitor goes once the answers are in, when the form does not wait for the flow. Empty: the form’s response message.',
    }),
  },
  async run(ctx) {
    const body = ctx.webhook?.body;
    return [{ data: isObject(body) ? body : {} }];
  },
});
