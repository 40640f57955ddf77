import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCatalog } from '../../adapters/apps/app-catalog.js';
import {
  loadAppDynamicData,
  registerAppHook,
  runAppAction,
  runAppTrigger,
  unregisterAppHook,
  verifyAppAuth,
} from '../../adapters/apps/app-harness.js';
import { basicHeader, WebhookRefusedError } from '../../adapters/apps/sdk/index.js';
import { createStepRunner } from '../../adapters/apps/step-runner.js';
import { twilio } from '../../adapters/apps/twilio/index.js';
import { twilioSignature } from '../../adapters/apps/twilio/receive-sms.js';
import { CapturingLogger } from '../support/capturing-logger.js';
import { type FakeVendor, reply, startFakeVendor } from '../support/fake-vendor.js';

const SID = `AC${'a1'.repeat(16)}`;
const TOKEN = 'twilio-auth-token-1';
const ACCOUNT = `/2010-04-01/Accounts/${SID}`;

const number = (i: number, capabilities = { sms: true, voice: true, mms: false }) => ({
  sid: `PN${String(i).padStart(32, '0')}`,
  phone_number: `+1555000000${i}`,
  friendly_name: `Line ${i}`,
  capabilities,
  sms_url: i === 1 ? 'https://old.example/sms' : '',
  sms_method: i === 1 ? 'GET' : 'POST',
});
const NUMBERS = [number(1), number(2, { sms: false, voice: true, mms: false }), number(3), number(4)];

/** Twilio's error body: a numeric code, the message, a link and the status. */
const twilioError = (status: number, code: number, message: string) =>
  reply(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });

let vendor: FakeVendor;
beforeAll(async () => {
  vendor = await startFakeVendor({
    authorize: (req) => req.headers.authorization === basicHeader(SID, TOKEN).authorization,
    unauthorized: twilioError(401, 20003, 'Authenticate'),
    rateLimited: twilioError(429, 20429, 'Too Many Requests'),
    routes: {
      [`GET ${ACCOUNT}.json`]: () => ({ sid: SID, friendly_name: 'My first Twilio account', status: 'active' }),
      // Two per page, each naming the next page's path with its query, as Twilio does.
      [`GET ${ACCOUNT}/IncomingPhoneNumbers.json`]: (req) => {
        const page = Number(req.query.Page ?? 0);
        const next =
          (page + 1) * 2 < NUMBERS.length
            ? `${ACCOUNT}/IncomingPhoneNumbers.json?PageSize=2&Page=${page + 1}&PageToken=PA${page}`
            : null;
        return {
          incoming_phone_numbers: NUMBERS.slice(page * 2, page * 2 + 2),
          page,
          page_size: 2,
          next_page_uri: next,
        };
      },
      [`GET ${ACCOUNT}/IncomingPhoneNumbers/:file`]: (req) =>
        NUMBERS.find((n) => `${n.sid}.json` === req.params.file) ??
        twilioError(404, 20404, 'The requested resource was not found'),
      // Updating a number: only the fields sent change.
      [`POST ${ACCOUNT}/IncomingPhoneNumbers/:file`]: (req) => {
        const found = NUMBERS.find((n) => `${n.sid}.json` === req.params.file);
        if (!found) return twilioError(404, 20404, 'The requested resource was not found');
        const form = req.body as Record<string, string>;
        if (form.SmsUrl !== undefined) found.sms_url = form.SmsUrl;
        if (form.SmsMethod !== undefined) found.sms_method = form.SmsMethod;
        return found;
      },
      [`POST ${ACCOUNT}/Messages.json`]: (req) => {
        const form = req.body as Record<string, string>;
        if (!form.To?.startsWith('+'))
          return twilioError(400, 21211, `The 'To' number ${form.To} is not a valid phone number.`);
        return reply(201, {
          sid: 'SM1',
          account_sid: SID,
          from: form.From,
          to: form.To,
          body: form.Body,
          status: 'queued',
        });
      },
      [`POST ${ACCOUNT}/Calls.json`]: (req) => {
        const form = req.body as Record<string, string>;
        return reply(201, { sid: 'CA1', from: form.From, to: form.To, status: 'queued' });
      },
      [`GET ${ACCOUNT}/Calls.json`]: (req) => ({
        calls: [
          { sid: 'CA7', to: req.query.To, from: '+4930123', date_created: 'Tue, 02 Jan 2024 10:00:00 +0000' },
          { sid: 'CA9', to: req.query.To, from: '+4930456', date_created: 'Wed, 03 Jan 2024 10:00:00 +0000' },
        ],
        next_page_uri: null,
      }),
    },
  });
});
afterAll(() => vendor.close());

const call = (parameters: Record<string, unknown> = {}) => ({
  auth: { accountSid: SID, authToken: TOKEN },
  baseUrl: vendor.url,
  parameters,
});

describe('twilio', () => {
  it('verifies the Account SID and Auth Token, and names the account', async () => {
    expect(await verifyAppAuth(twilio, { accountSid: SID, authToken: TOKEN }, { baseUrl: vendor.url })).toMatchObject({
      ok: true,
      screenName: 'My first Twilio account',
    });
    const refused = await verifyAppAuth(twilio, { accountSid: SID, authToken: 'wrong-token' }, { baseUrl: vendor.url });
    expect(refused).toEqual({ ok: false, reason: expect.stringContaining('answered 401: Authenticate') });
    expect(JSON.stringify(refused)).not.toContain('wrong-token');
  });

  it('sends an SMS as a form to the account’s Messages, and answers Twilio’s message', async () => {
    const output = await runAppAction(
      twilio,
      'sendSms',
      call({ fromNumber: ' +15550000001 ', toNumber: '+4915112345', message: 'Hi & bye' }),
    );
    expect(output).toMatchObject({ sid: 'SM1', status: 'queued', to: '+4915112345', body: 'Hi & bye' });
    const sent = vendor.calls(`POST ${ACCOUNT}/Messages.json`).at(-1);
    expect(sent?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent?.body).toEqual({ From: '+15550000001', To: '+4915112345', Body: 'Hi & bye' });
  });

  it('surfaces Twilio’s message when it refuses an SMS', async () => {
    await expect(
      runAppAction(twilio, 'sendSms', call({ fromNumber: '+15550000001', toNumber: '0151', message: 'x' })),
    ).rejects.toThrow("answered 400: The 'To' number 0151 is not a valid phone number.");
  });

  it('makes a call that reads the message out, escaped as TwiML text', async () => {
    const output = await runAppAction(
      twilio,
      'makeCall',
      call({ fromNumber: '+15550000001', toNumber: '+4915112345', message: 'Server <db1> is down & out' }),
    );
    expect(output).toMatchObject({ sid: 'CA1', status: 'queued' });
    expect(vendor.calls(`POST ${ACCOUNT}/Calls.json`).at(-1)?.body).toEqual({
      From: '+15550000001',
      To: '+4915112345',
      Twiml: '<Response><Say voice="woman">Server &lt;db1&gt; is down &amp; out</Say></Response>',
    });
  });

  it('turns Twilio’s 429 into a retryable failure', async () => {
    const catalog = createAppCatalog({
      apps: [twilio],
      allowPrivateNetworks: true,
      logger: new CapturingLogger(),
      appAddresses: { APP_BASE_URL_TWILIO: vendor.url },
    });
    vendor.rateLimit(1);
    const outcome = await createStepRunner(catalog, [twilio]).runAction({
      appKey: 'twilio',
      key: 'sendSms',
      parameters: { fromNumber: '+15550000001', toNumber: '+4915112345', message: 'x' },
      connection: { credentials: { accountSid: SID, authToken: TOKEN }, oauth: null },
      execution: null,
    } as never);
    expect(outcome).toMatchObject({ kind: 'failure', failure: { retryable: true } });
    await catalog.close();
  });

  it('polls the calls to the chosen number, newest first, each with its SID', async () => {
    const items = await runAppTrigger(twilio, 'newCall', call({ phoneNumberSid: NUMBERS[2]?.sid }));
    expect(items.map((item) => item.id)).toEqual(['CA9', 'CA7']);
    expect(items[0]?.data).toMatchObject({ to: '+15550000003', from: '+4930456' });
    expect(vendor.calls(`GET ${ACCOUNT}/Calls.json`).at(-1)?.query).toMatchObject({ To: '+15550000003' });
  });

  it('lists the account’s numbers across pages: SMS-capable ones, voice ones, and all by SID', async () => {
    expect(await loadAppDynamicData(twilio, 'listIncomingPhoneNumbers', call())).toEqual([
      { name: 'Line 1 - +15550000001', value: '+15550000001' },
      { name: 'Line 3 - +15550000003', value: '+15550000003' },
      { name: 'Line 4 - +15550000004', value: '+15550000004' },
    ]);
    expect((await loadAppDynamicData(twilio, 'listVoicePhoneNumbers', call())).map((o) => o.value)).toHaveLength(4);
    expect((await loadAppDynamicData(twilio, 'listPhoneNumberSids', call())).map((o) => o.value)).toEqual(
      NUMBERS.map((n) => n.sid),
    );
  });

  it('signs as Twilio documents: HMAC-SHA1 over the address and the sorted parameters', () => {
    // twilio-node's own fixture.
    const form = new URLSearchParams({
      CallSid: 'CA1234567890ABCDE',
      Caller: '+14158675309',
      Digits: '1234',
      From: '+14158675309',
      To: '+18005551212',
    });
    expect(twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', form.toString())).toBe(
      'RSOYDt4T1cUTdK1PDd93/VVr8B8=',
    );
  });

  it('points the number’s SMS webhook at the flow on publish, and back on unpublish', async () => {
    const line = NUMBERS[0];
    const flowUrl = 'https://conveyor.example/webhooks/flows/f1';
    const hook = await registerAppHook(twilio, 'receiveSms', {
      ...call({ phoneNumberSid: line?.sid }),
      webhookUrl: flowUrl,
    });
    expect(hook).toEqual({
      phoneNumberSid: line?.sid,
      url: flowUrl,
      previousSmsUrl: 'https://old.example/sms',
      previousSmsMethod: 'GET',
    });
    expect(vendor.calls(`POST ${ACCOUNT}/IncomingPhoneNumbers/:file`).at(-1)?.body).toEqual({
      SmsUrl: flowUrl,
      SmsMethod: 'POST',
    });
    await unregisterAppHook(twilio, 'receiveSms', {
      ...call({ phoneNumberSid: line?.sid }),
      webhookUrl: flowUrl,
      hook,
    });
    expect(line).toMatchObject({ sms_url: 'https://old.example/sms', sms_method: 'GET' });
  });

  it('leaves the number alone on unpublish when it was pointed elsewhere meanwhile', async () => {
    const line = NUMBERS[2];
    const flowUrl = 'https://conveyor.example/webhooks/flows/f3';
    const hook = await registerAppHook(twilio, 'receiveSms', {
      ...call({ phoneNumberSid: line?.sid }),
      webhookUrl: flowUrl,
    });
    if (line) line.sms_url = 'https://someone-else.example/sms';
    const updates = vendor.calls(`POST ${ACCOUNT}/IncomingPhoneNumbers/:file`).length;
    await unregisterAppHook(twilio, 'receiveSms', {
      ...call({ phoneNumberSid: line?.sid }),
      webhookUrl: flowUrl,
      hook,
    });
    expect(vendor.calls(`POST ${ACCOUNT}/IncomingPhoneNumbers/:file`)).toHaveLength(updates);
    expect(line?.sms_url).toBe('https://someone-else.example/sms');
  });

  it('takes an SMS Twilio signed for the registered address, one run per MessageSid', async () => {
    const url = 'https://conveyor.example/webhooks/flows/f1';
    const hook = { phoneNumberSid: NUMBERS[0]?.sid, url, previousSmsUrl: '', previousSmsMethod: 'POST' };
    const rawBody = new URLSearchParams({
      MessageSid: 'SM900',
      AccountSid: SID,
      From: '+4915112345',
      To: '+15550000001',
      Body: 'Stop & go',
      NumMedia: '0',
    }).toString();
    const delivery = (signature: string, body = rawBody) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      query: {},
      body: Object.fromEntries(new URLSearchParams(body)),
      rawBody: body,
    });
    const items = await runAppTrigger(twilio, 'receiveSms', {
      ...call({ phoneNumberSid: NUMBERS[0]?.sid }),
      webhook: delivery(twilioSignature(TOKEN, url, rawBody)),
      hook,
    });
    expect(items).toEqual([{ id: 'SM900', data: expect.objectContaining({ Body: 'Stop & go', From: '+4915112345' }) }]);
    for (const forged of [
      delivery(twilioSignature('another-token', url, rawBody)),
      delivery(twilioSignature(TOKEN, 'https://elsewhere.example/', rawBody)),
      delivery(twilioSignature(TOKEN, url, rawBody), rawBody.replace('Stop', 'Go')),
    ]) {
      await expect(
        runAppTrigger(twilio, 'receiveSms', { ...call({ phoneNumberSid: NUMBERS[0]?.sid }), webhook: forged, hook }),
      ).rejects.toBeInstanceOf(WebhookRefusedError);
    }
  });

  it('keeps Automatisch’s keys', () => {
    const { manifest } = twilio;
    expect(manifest.key).toBe('twilio');
    expect(manifest.auth.fields.map((field) => field.key)).toEqual(['accountSid', 'authToken']);
    expect(manifest.triggers.find((t) => t.key === 'receiveSms')).toMatchObject({
      type: 'webhook',
      arguments: [expect.objectContaining({ key: 'phoneNumberSid' })],
    });
    const sendSms = manifest.actions.find((action) => action.key === 'sendSms');
    expect(sendSms?.arguments.map((argument) => argument.key)).toEqual(['fromNumber', 'toNumber', 'message']);
  });
});
