import { randomBytes } from 'node:crypto';
import { defineTrigger, dynamicDropdown, hmacBase64, refuseWebhook, safeEqual, segment } from '../sdk/index.js';

/** What the flow keeps of its Typeform webhook: where it is, and the secret deliveries are signed with. */
interface Hook {
  readonly formId: string;
  readonly tag: string;
  readonly secret: string;
}

const isHook = (value: unknown): value is Hook =>
  typeof value === 'object' &&
  value !== null &&
  ['formId', 'tag', 'secret'].every((key) => typeof (value as Record<string, unknown>)[key] === 'string');

const webhookPath = (hook: Pick<Hook, 'formId' | 'tag'>) =>
  `/forms/${segment(hook.formId)}/webhooks/${segment(hook.tag)}`;

export const newEntry = defineTrigger({
  key: 'newEntry',
  name: 'New entry',
  description: 'Starts the flow with each response submitted to a form, as Typeform delivers it.',
  type: 'webhook',
  arguments: {
    formId: dynamicDropdown({
      label: 'Form',
      required: true,
      description: 'The form whose submissions start the flow.',
      dynamicData: 'listForms',
    }),
  },
  async registerHook(ctx) {
    // Typeform names a form's webhooks by a tag of ours, and signs deliveries with a secret of ours.
    const hook: Hook = {
      formId: ctx.parameters.formId,
      tag: `conveyor-${randomBytes(8).toString('hex')}`,
      secret: randomBytes(32).toString('hex'),
    };
    await ctx.http.request({
      method: 'PUT',
      path: webhookPath(hook),
      body: { url: ctx.webhookUrl, enabled: true, secret: hook.secret, verify_ssl: true },
    });
    return hook;
  },
  async unregisterHook(ctx) {
    if (!isHook(ctx.hook)) return;
    await ctx.http.request({ method: 'DELETE', path: webhookPath(ctx.hook) });
  },
  async run(ctx) {
    const request = ctx.webhook;
    if (!request) return [];
    if (!isHook(ctx.hook)) return refuseWebhook('No Typeform webhook is registered for this flow.');
    const expected = `sha256=${hmacBase64('sha256', ctx.hook.secret, request.rawBody)}`;
    if (!safeEqual(request.headers['typeform-signature'] ?? '', expected)) {
      return refuseWebhook('The Typeform-Signature header does not match the body.');
    }
    const body = request.body as { event_id?: unknown; form_response?: { token?: unknown } } | null;
    // The response's token names it across Typeform's retries of the same delivery.
    const id = body?.form_response?.token ?? body?.event_id;
    return [{ ...(typeof id === 'string' && { id }), data: request.body }];
  },
});
