import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPaddleWebhooks } from './paddle-webhooks.js';

const SECRET = 'pdl_ntfset_current_secret';
const NOW = new Date('2026-11-23T10:00:00.000Z');
const ts = Math.floor(NOW.getTime() / 1000);
const h1 = (body: string, secret = SECRET, at = ts) =>
  createHmac('sha256', secret).update(`${at}:${body}`).digest('hex');
const paddle = createPaddleWebhooks({ secret: SECRET, toleranceMs: 5_000 });

const transaction = (status: string) =>
  JSON.stringify({
    event_id: 'evt_1',
    event_type: 'transaction.updated',
    occurred_at: NOW.toISOString(),
    data: {
      id: 'txn_1',
      status,
      subscription_id: null,
      currency_code: 'EUR',
      details: { totals: { grand_total: '1999' } },
    },
  });

describe('Paddle webhooks', () => {
  it('accepts any of the h1 signatures sent while a secret is rotated', () => {
    const body = transaction('completed');
    const header = `ts=${ts};h1=${h1(body, 'pdl_ntfset_old_secret')};h1=${h1(body)}`;
    const read = paddle.readWebhook(body, { signature: header }, NOW);
    expect(read.ok && read.value).toMatchObject({ kind: 'invoice', invoice: { id: 'txn_1', total: '1999' } });
  });

  it('holds the time window on both sides', () => {
    const body = transaction('completed');
    const at = (seconds: number) => `ts=${ts + seconds};h1=${h1(body, SECRET, ts + seconds)}`;
    expect(paddle.readWebhook(body, { signature: at(-5) }, NOW).ok).toBe(true);
    for (const seconds of [-6, 6]) {
      const read = paddle.readWebhook(body, { signature: at(seconds) }, NOW);
      expect(read.ok || read.error.reason).toBe('timestamp');
    }
  });

  it('does not take a draft or open checkout for an invoice, nor an unknown event for an error', () => {
    const draft = transaction('ready');
    expect(paddle.readWebhook(draft, { signature: `ts=${ts};h1=${h1(draft)}` }, NOW)).toMatchObject({
      ok: true,
      value: { kind: 'other' },
    });
    const other = JSON.stringify({
      event_id: 'evt_2',
      event_type: 'customer.created',
      occurred_at: NOW.toISOString(),
      data: {},
    });
    expect(paddle.readWebhook(other, { signature: `ts=${ts};h1=${h1(other)}` }, NOW)).toMatchObject({
      ok: true,
      value: { kind: 'other', type: 'customer.created' },
    });
  });
});
