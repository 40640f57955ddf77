import {
  defineTrigger,
  hmacHex,
  refuseWebhook,
  replyToWebhook,
  safeEqual,
  type TriggerContext,
  type TriggerDefinition,
} from '../sdk/index.js';
import { zoomAuth } from './auth.js';

/** A Zoom webhook's body: the event, and what it is about. */
interface ZoomEvent {
  readonly event?: string;
  readonly event_ts?: number;
  readonly payload?: {
    readonly account_id?: string;
    readonly plainToken?: string;
    readonly object?: {
      readonly id?: number | string;
      readonly uuid?: string;
      readonly host_id?: string;
      readonly registrant?: { readonly id?: string };
    };
  };
}

/** Older deliveries are refused: a captured one cannot be replayed. */
const MAX_AGE_SECONDS = 300;

const secretOf = (ctx: TriggerContext<unknown>) =>
  ctx.auth.client ? zoomAuth.readClient(ctx.auth.client).webhookSecretToken : undefined;

/**
 * Checks Zoom's signature: `x-zm-signature` is `v0=` and the hex HMAC-SHA256, keyed by the app's
 * secret token, of `v0:{x-zm-request-timestamp}:{body}`. Zoom signs its endpoint validation too,
 * which is checked the same way before it is answered: answering unsigned challenges would let
 * anyone have the secret sign a text of their choosing.
 */
const verified = (ctx: TriggerContext<unknown>, secret: string): ZoomEvent => {
  const request = ctx.webhook;
  if (!request) return refuseWebhook('No request.');
  const timestamp = request.headers['x-zm-request-timestamp'] ?? '';
  const expected = `v0=${hmacHex('sha256', secret, `v0:${timestamp}:${request.rawBody}`)}`;
  if (!safeEqual(request.headers['x-zm-signature'] ?? '', expected)) {
    return refuseWebhook('The x-zm-signature header does not match the body.');
  }
  const seconds = Number(timestamp) > 1e11 ? Number(timestamp) / 1000 : Number(timestamp);
  if (!Number.isFinite(seconds) || Math.abs(Date.now() / 1000 - seconds) > MAX_AGE_SECONDS) {
    return refuseWebhook('The x-zm-request-timestamp is more than five minutes away.');
  }
  return (request.body ?? {}) as ZoomEvent;
};

/** Zoom sends an app's events for every user who installed it: only this connection's start runs. */
const forConnection = (event: ZoomEvent, auth: Readonly<Record<string, unknown>>) => {
  const host = event.payload?.object?.host_id;
  if (host !== undefined && typeof auth.zoomUserId === 'string') return host === auth.zoomUserId;
  const account = event.payload?.account_id;
  return account === undefined || typeof auth.zoomAccountId !== 'string' || account === auth.zoomAccountId;
};

interface ZoomEventTriggerOptions {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  /** Zoom's event type (`meeting.started`). */
  readonly event: string;
}

/**
 * A Zoom webhook trigger. Zoom's webhooks are event subscriptions of the Zoom app (its build
 * flow, Features, Access): the flow's webhook address is added there as an endpoint, with the
 * app's secret token in the OAuth client settings. Zoom validates the address first
 * (`endpoint.url_validation`: the plain token and its HMAC). Deliveries of other event types, or
 * of other users of the app, start nothing; the output is Zoom's event.
 */
const zoomEventTrigger = (options: ZoomEventTriggerOptions): TriggerDefinition<Record<never, never>, never> =>
  defineTrigger({
    key: options.key,
    name: options.name,
    description: options.description,
    type: 'webhook',
    arguments: {},
    async run(ctx) {
      if (!ctx.webhook) return [];
      const secret = secretOf(ctx);
      if (!secret) return refuseWebhook("Set the Zoom app's webhook secret token in the OAuth client settings.");
      const event = verified(ctx, secret);
      if (event.event === 'endpoint.url_validation') {
        const plainToken = event.payload?.plainToken;
        if (typeof plainToken !== 'string') return refuseWebhook('The endpoint validation has no plainToken.');
        return replyToWebhook({
          status: 200,
          body: { plainToken, encryptedToken: hmacHex('sha256', secret, plainToken) },
        });
      }
      if (event.event !== options.event || !forConnection(event, ctx.auth.data)) return [];
      const object = event.payload?.object;
      const about = [object?.uuid ?? object?.id, object?.registrant?.id].filter((part) => part !== undefined);
      return [{ id: [options.event, ...about, event.event_ts].join(':'), data: event }];
    },
  });

export const meetingStarted = zoomEventTrigger({
  key: 'meetingStarted',
  name: 'Meeting started',
  description: "Starts a run when one of the user's meetings starts (Zoom webhook meeting.started).",
  event: 'meeting.started',
});

export const meetingEnded = zoomEventTrigger({
  key: 'meetingEnded',
  name: 'Meeting ended',
  description: "Starts a run when one of the user's meetings ends (Zoom webhook meeting.ended).",
  event: 'meeting.ended',
});

export const recordingCompleted = zoomEventTrigger({
  key: 'recordingCompleted',
  name: 'Recording completed',
  description: "Starts a run when a meeting's cloud recording is ready (Zoom webhook recording.completed).",
  event: 'recording.completed',
});

export const webinarRegistrationCreated = zoomEventTrigger({
  key: 'webinarRegistrationCreated',
  name: 'Webinar registration created',
  description:
    "Starts a run when someone registers for one of the user's webinars (Zoom webhook webinar.registration_created).",
  event: 'webinar.registration_created',
});
