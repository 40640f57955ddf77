/**
 * How a webhook trigger's `run` answers a delivery other than with items: it refuses one whose
 * signature does not verify, or answers a vendor's verification handshake itself. Both are thrown
 * (the helpers return `never`), so that `return refuseWebhook(...)` and a bare call both work from
 * any depth of the app's code; an app's own `try` must let them through.
 */

/** Thrown by a webhook trigger for a delivery it does not trust: the intake answers 401 and starts no run. */
export class WebhookRefusedError extends Error {
  override readonly name = 'WebhookRefusedError';
}

/**
 * Refuses the delivery (a signature that does not verify, a timestamp too old). The message is
 * the API's answer and the log's: say what failed, never the secret or the expected signature.
 */
export const refuseWebhook = (message = 'The webhook signature does not verify.'): never => {
  throw new WebhookRefusedError(message);
};

/** The answer to a vendor's handshake (Slack's `url_verification`, Meta's `hub.challenge`, Zoom's endpoint validation). */
export interface WebhookReply {
  /** 200 to 599. */
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Text is sent as it is, anything else as JSON; null or absent, no body. */
  readonly body?: unknown;
}

/** Carries a reply from the trigger to the intake; thrown by `replyToWebhook`. */
export class WebhookReplyRequested extends Error {
  override readonly name = 'WebhookReplyRequested';
  readonly reply: WebhookReply;

  constructor(reply: WebhookReply) {
    super(`The trigger answers the request itself (status ${reply.status}).`);
    this.reply = reply;
  }
}

/**
 * Answers the request with this, and starts no run: a vendor's verification handshake. The
 * status must be an integer from 200 to 599 (a mistake in the app throws a TypeError at once).
 */
export const replyToWebhook = (reply: WebhookReply): never => {
  if (!Number.isInteger(reply.status) || reply.status < 200 || reply.status > 599)
    throw new TypeError(`replyToWebhook: status ${reply.status} is not an integer from 200 to 599.`);
  throw new WebhookReplyRequested(reply);
};
