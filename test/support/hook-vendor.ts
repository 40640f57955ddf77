import { createHmac, randomBytes } from 'node:crypto';
import {
  defineApp,
  defineTrigger,
  fieldsAuth,
  hmacHex,
  refuseWebhook,
  replyToWebhook,
  safeEqual,
  text,
} from '../../adapters/apps/sdk/index.js';
import { reply, startFakeVendor } from './fake-vendor.js';
import { TEST_ICON } from './test-icon.js';

export interface VendorHook {
  readonly id: string;
  readonly url: string;
  readonly events: string;
  /** The signing secret the vendor gave when the hook was made. */
  readonly secret: string;
}

/** A signed delivery, as the vendor would send it to a hook's address. */
export interface Delivery {
  /** The hook's address without its origin: what the test instance serves. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export const VENDOR_API_KEY = 'vendor-api-key-0123456789';
const SIGNATURE_HEADER = 'x-vendor-signature';

/**
 * A vendor with webhooks on 127.0.0.1 (on the fake-vendor kit), as SaaS APIs have them:
 * `POST /hooks` makes one for an address and hands back its id and a signing secret,
 * `DELETE /hooks/:id` removes it, and each delivery carries
 * `X-Vendor-Signature: sha256=<HMAC-SHA256 of the raw body, hex>`. It records every registration
 * and deletion, and can be told to refuse either.
 */
export const startHookVendor = async () => {
  const hooks = new Map<string, VendorHook>();
  const registered: VendorHook[] = [];
  const deleted: string[] = [];
  const control = {
    /** While set, registrations answer 422 with this message (followed by the key the request carried). */
    refuseRegistration: null as string | null,
    /** While set, deletions answer 503. */
    failDeletion: false,
  };
  let made = 0;

  const server = await startFakeVendor({
    authorize: (request) => request.headers.authorization === `Bearer ${VENDOR_API_KEY}`,
    unauthorized: reply(401, { message: 'Bad API key.' }),
    routes: {
      'POST /hooks': (request) => {
        // Vendors echo what they were sent: the key must not reach the user.
        if (control.refuseRegistration !== null)
          return reply(422, { message: `${control.refuseRegistration} (key ${VENDOR_API_KEY})` });
        const { url, events } = request.body as { url: string; events: string };
        made++;
        const hook = { id: `hook_${made}`, url, events, secret: randomBytes(16).toString('hex') };
        hooks.set(hook.id, hook);
        registered.push(hook);
        return reply(201, { id: hook.id, secret: hook.secret });
      },
      'DELETE /hooks/:id': (request) => {
        if (control.failDeletion) return reply(503, { message: 'Try again later.' });
        const id = request.params.id as string;
        if (!hooks.delete(id)) return reply(404, { message: 'No such hook.' });
        deleted.push(id);
        return reply(204);
      },
    },
  });

  /** A delivery of `event` to a hook, signed with its secret (or with `secret`, to forge one). */
  const deliver = (hook: VendorHook, event: unknown, secret = hook.secret): Delivery => {
    const body = JSON.stringify(event);
    const signature = createHmac('sha256', secret).update(body).digest('hex');
    return {
      path: new URL(hook.url).pathname,
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: `sha256=${signature}` },
      body,
    };
  };

  return {
    url: server.url,
    /** The hooks the vendor holds now, by id. */
    hooks,
    registered,
    deleted,
    control,
    deliver,
    close: server.close,
  };
};

export type HookVendor = Awaited<ReturnType<typeof startHookVendor>>;

/** What the app keeps of a registration: the vendor's hook id and the secret it signs with. */
interface HookState {
  readonly id: string;
  readonly secret: string;
}

const hookState = (value: unknown): HookState | null => {
  const state = value as Partial<HookState> | null;
  return typeof state?.id === 'string' && typeof state.secret === 'string' ? (state as HookState) : null;
};

/**
 * The app over the fake vendor: an instant trigger that registers a hook on publish, removes it on
 * unpublish, verifies each delivery's signature, and answers the vendor's handshake
 * (`GET ?challenge=...`, as Meta's `hub.challenge`) itself.
 */
export const vendorApp = defineApp({
  key: 'test-vendor',
  name: 'Test vendor',
  description: 'A SaaS with webhooks, on the test’s loopback.',
  icon: TEST_ICON,
  primaryColor: '#226699',
  version: 1,
  auth: fieldsAuth({
    fields: {
      serverUrl: text({ label: 'Server URL', required: true }),
      apiKey: text({ label: 'API key', required: true, secret: true }),
    },
    headers: (data) => ({ authorization: `Bearer ${data.apiKey}` }),
    async verify() {
      return { screenName: 'vendor' };
    },
  }),
  triggers: [
    defineTrigger({
      key: 'newEvent',
      name: 'New event',
      description: 'Starts the flow with each event the vendor delivers.',
      type: 'webhook',
      arguments: { events: text({ label: 'Events', required: true }) },
      async run(ctx) {
        const request = ctx.webhook;
        if (!request) return [];
        const challenge = request.query.challenge;
        if (request.method === 'GET' && typeof challenge === 'string')
          return replyToWebhook({ status: 200, headers: { 'content-type': 'text/plain' }, body: challenge });
        const hook = hookState(ctx.hook);
        if (!hook) return refuseWebhook('No hook is registered for this flow.');
        const given = request.headers[SIGNATURE_HEADER] ?? '';
        if (!safeEqual(given, `sha256=${hmacHex('sha256', hook.secret, request.rawBody)}`))
          return refuseWebhook('The X-Vendor-Signature header does not match the body.');
        return [{ data: request.body }];
      },
      async registerHook(ctx) {
        const { data } = await ctx.http.request<HookState>({
          method: 'POST',
          path: '/hooks',
          body: { url: ctx.webhookUrl, events: ctx.parameters.events },
        });
        return { id: data.id, secret: data.secret };
      },
      async unregisterHook(ctx) {
        const hook = hookState(ctx.hook);
        if (!hook) throw new Error('The stored hook has no id.');
        await ctx.http.request({ method: 'DELETE', path: `/hooks/${encodeURIComponent(hook.id)}` });
      },
    }),
  ],
  actions: [],
  http: { connectionBaseUrl: (auth) => String(auth.data.serverUrl) },
});
