import { describe, expect, it } from 'vitest';
import { refuseWebhook, replyToWebhook, WebhookRefusedError, WebhookReplyRequested } from './webhook-answers.js';

describe('webhook answers', () => {
  it('refuseWebhook throws a WebhookRefusedError with the reason, or a default one', () => {
    expect(() => refuseWebhook('The Stripe-Signature header is missing.')).toThrow(
      new WebhookRefusedError('The Stripe-Signature header is missing.'),
    );
    try {
      refuseWebhook();
    } catch (error) {
      expect(error).toBeInstanceOf(WebhookRefusedError);
      expect((error as Error).message).toBe('The webhook signature does not verify.');
    }
  });

  it('replyToWebhook throws the reply for the intake to send', () => {
    try {
      replyToWebhook({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'challenge-1' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(WebhookReplyRequested);
      expect((error as WebhookReplyRequested).reply).toEqual({
        status: 200,
        headers: { 'content-type': 'text/plain' },
        body: 'challenge-1',
      });
    }
  });

  it('replyToWebhook refuses a status HTTP cannot answer with, as the app’s mistake', () => {
    for (const status of [0, 99, 101, 199, 600, 200.5, Number.NaN])
      expect(() => replyToWebhook({ status })).toThrow(TypeError);
  });
});
