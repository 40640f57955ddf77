import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, eventually, sendWebhook } from '../support/engine-flows.js';
import {
  BOB,
  enableRegistration,
  installAndSignIn,
  registerAndSignIn,
  startTestInstance,
  type TestInstance,
} from '../support/http.js';
import { rawExecute, rawQuery } from '../support/raw-sql.js';

const CONTACT = {
  name: 'Contact',
  displayName: 'Contact <us>',
  description: 'We answer "within" a day & more.',
  responseMessage: 'Thanks, we will write back.',
  submitButtonText: 'Send it',
  fields: [
    { name: 'Your name', key: 'name', type: 'string', required: true },
    { name: 'Email', key: 'email', type: 'string', required: true, validationFormat: 'email' },
    { name: 'Plan', key: 'plan', type: 'dropdown', options: [{ value: 'Free' }, { value: 'Pro <b>' }] },
    { name: 'News', key: 'news', type: 'checkbox' },
    { name: 'Message', key: 'message', type: 'multiline' },
    {
      name: 'Guests',
      key: 'guests',
      type: 'array',
      maxItems: 2,
      fields: [{ name: 'Guest name', key: 'name', type: 'string', required: true }],
    },
  ],
};

const FORM_TYPE = 'application/x-www-form-urlencoded';

describe.each(DIALECTS)('forms (%s)', (dialect) => {
  let instance: TestInstance;
  let token: string;
  let bob: { id: string; token: string };
  beforeAll(async () => {
    instance = await startTestInstance(dialect, {}, {}, { onDisk: true });
    token = await installAndSignIn(instance);
    await enableRegistration(instance, token);
    bob = await registerAndSignIn(instance, BOB);
  });
  afterAll(() => instance.close());

  const create = async (body: unknown = CONTACT, as = token) => {
    const res = await instance.request('POST', '/forms', { token: as, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  };
  const page = (path: string) => instance.conveyor.app.request(path);
  const post = (path: string, fields: Record<string, string> | string, headers: Record<string, string> = {}) =>
    instance.conveyor.app.request(path, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE, ...headers },
      body: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
    });

  describe('the API', () => {
    it("creates, lists, reads, changes and deletes a form, with Automatisch's keys", async () => {
      const created = await instance.request('POST', '/forms', { token, body: CONTACT });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        data: {
          id: expect.any(String),
          ...CONTACT,
          createdAt: expect.any(Number),
          updatedAt: expect.any(Number),
        },
        meta: { type: 'Form', count: 1, isArray: false, currentPage: null, totalPages: null },
      });
      const { id } = created.body.data;
      const later = await create({ name: 'Later' });
      expect(later).toMatchObject({ displayName: null, description: null, responseMessage: null, fields: [] });

      const list = await instance.request('GET', '/forms', { token });
      expect(list.body.meta).toMatchObject({ type: 'Form', isArray: true });
      expect(list.body.data.map((f: { id: string }) => f.id).slice(0, 2)).toEqual([later.id, id]);
      expect((await instance.request('GET', `/forms/${id}`, { token })).body.data).toEqual(created.body.data);
      // The same under Automatisch's prefix.
      expect((await instance.request('GET', `/forms/${id}`, { token, mount: '/internal/api/v1' })).status).toBe(200);

      const changed = await instance.request('PATCH', `/forms/${id}`, {
        token,
        body: { name: 'Renamed', description: null, fields: [{ name: 'Only', key: 'only', type: 'string' }] },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({
        name: 'Renamed',
        displayName: CONTACT.displayName,
        description: null,
        fields: [{ name: 'Only', key: 'only', type: 'string' }],
      });

      expect((await instance.request('DELETE', `/forms/${id}`, { token })).status).toBe(204);
      expect((await instance.request('GET', `/forms/${id}`, { token })).status).toBe(404);
      expect((await instance.request('DELETE', `/forms/${id}`, { token })).status).toBe(404);
      expect((await instance.request('GET', '/forms/not-a-uuid', { token })).status).toBe(404);
    });

    it('keeps forms personal: another user neither sees nor changes them', async () => {
      const form = await create();
      expect((await instance.request('GET', `/forms/${form.id}`, { token: bob.token })).status).toBe(404);
      expect(
        (await instance.request('PATCH', `/forms/${form.id}`, { token: bob.token, body: { name: 'Mine' } })).status,
      ).toBe(404);
      expect((await instance.request('GET', '/forms', { token: bob.token })).body.data).toEqual([]);
    });

    it('answers 422 with each field at fault, in the one error shape', async () => {
      const shapes = await instance.request('POST', '/forms', {
        token,
        body: {
          name: ' ',
          fields: [
            { name: 'A', key: 'a', type: 'bogus' },
            { name: '', key: 'b', type: 'string', required: 'yes' },
          ],
        },
      });
      expect(shapes.status).toBe(422);
      expect(shapes.body).toEqual({
        errors: {
          name: ['is required.'],
          'fields.0.type': [expect.stringMatching(/^must be one of: array, checkbox/)],
          'fields.1.name': ['is required.'],
          'fields.1.required': ['must be a boolean.'],
        },
        meta: { type: 'ValidationError' },
      });

      const together = await instance.request('POST', '/forms', {
        token,
        body: {
          name: 'Odd',
          fields: [
            { name: 'A', key: 'a.b', type: 'string' },
            { name: 'B', key: 'b', type: 'string', validationFormat: 'custom', validationPattern: '(' },
            { name: 'C', key: 'b', type: 'array', minItems: 3, maxItems: 2 },
          ],
        },
      });
      expect(together.status).toBe(422);
      expect(together.body.errors).toEqual({
        'fields.0.key': ['must not contain a dot.'],
        'fields.1.validationPattern': ['must be a valid pattern.'],
        'fields.2.key': ['is used by another field.'],
        'fields.2.maxItems': ['must be at least minItems (3).'],
      });

      const form = await create({ name: 'Kept' });
      const patched = await instance.request('PATCH', `/forms/${form.id}`, {
        token,
        body: { name: '', userId: bob.id },
      });
      expect(patched.status).toBe(422);
      expect(patched.body.errors).toEqual({ name: ['is required.'], userId: ['is not allowed.'] });
    });
  });

  describe('the public page', () => {
    it('renders the form as plain HTML: labelled, required fields marked, every text escaped, nothing loaded', async () => {
      const form = await create();
      const res = await page(`/forms/${form.id}?name=Ada%20%3Cscript%3E&plan=Pro%20%3Cb%3E&news=true`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
      const html = await res.text();
      expect(html).toContain('<title>Contact &lt;us&gt;</title>');
      expect(html).toContain('<h1>Contact &lt;us&gt;</h1>');
      expect(html).toContain('We answer &quot;within&quot; a day &amp; more.');
      expect(html).toContain(`<form method="post" action="/forms/${form.id}?name=Ada%20%3Cscript%3E&amp;plan=`);
      // Each input has its label; required ones are required; the query fills them in, escaped.
      expect(html).toMatch(
        /<label for="field-0">Your name <span class="required" aria-hidden="true">\*<\/span><\/label>/,
      );
      expect(html).toMatch(
        /<input type="text" maxlength="1000" value="Ada &lt;script&gt;" id="field-0" name="name" required>/,
      );
      expect(html).toMatch(/<input type="email" [^>]*id="field-1" name="email" required>/);
      expect(html).toContain('<option value="Pro &lt;b&gt;" selected>Pro &lt;b&gt;</option>');
      expect(html).toMatch(/<input type="checkbox" value="true" id="field-3" name="news" checked>/);
      expect(html).toContain('<textarea rows="4" maxlength="10000" id="field-4" name="message"></textarea>');
      // An array field offers its rows (at most its maxItems), each a group of its own.
      expect(html).toContain('<legend>Guests 2</legend>');
      expect(html).not.toContain('<legend>Guests 3</legend>');
      expect(html).toContain('name="guests.1.name"');
      expect(html).toContain('<button type="submit">Send it</button>');
      expect(html).not.toMatch(/<script|<link|src=|https?:\/\//);
    });

    it('answers a plain 404 page for a form that does not exist', async () => {
      for (const path of ['/forms/6f1f0000-0000-4000-8000-000000000000', '/forms/not-an-id']) {
        const res = await page(path);
        expect(res.status, path).toBe(404);
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(await res.text()).toContain('This form does not exist, or it was removed.');
        expect((await post(path, { name: 'Ada' })).status).toBe(404);
      }
    });

    it('enforces required fields and formats on the server, and shows the form again with its problems', async () => {
      const form = await create();
      const res = await post(`/forms/${form.id}`, { name: ' ', email: 'nope', plan: 'Gold', 'guests.0.name': '' });
      expect(res.status).toBe(422);
      const html = await res.text();
      expect(html).toContain('<title>Error: Contact &lt;us&gt;</title>');
      expect(html).toContain('<div class="problems" role="alert"><h2>Please check your answers</h2>');
      expect(html).toContain('<a href="#field-0">Your name: is required.</a>');
      expect(html).toContain('<a href="#field-1">Email: must be an e-mail address.</a>');
      expect(html).toContain('<a href="#field-2">Plan: must be one of the choices.</a>');
      // Next to each field too, tied to it for screen readers; what was typed stays.
      expect(html).toMatch(
        /value="nope" id="field-1" name="email" required aria-invalid="true" aria-describedby="field-1-error">/,
      );
      expect(html).toContain('<p class="error" id="field-1-error">must be an e-mail address.</p>');
    });

    it('takes valid answers and shows the form’s response message when no flow answers', async () => {
      const form = await create();
      const res = await post(`/forms/${form.id}`, { name: 'Ada', email: 'ada@example.com' });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<div class="message" role="status">Thanks, we will write back.</div>');
      expect(html).toContain(`<a href="/forms/${form.id}">Send another answer</a>`);
      const plain = await create({ name: 'Plain', fields: [] });
      expect(await (await post(`/forms/${plain.id}`, '')).text()).toContain('Thank you. Your answers were received.');
    });

    it('refuses what a browser would not send: another content type, a body past its bound', async () => {
      const form = await create();
      const json = await post(`/forms/${form.id}`, JSON.stringify({ name: 'Ada' }), {
        'content-type': 'application/json',
      });
      expect(json.status).toBe(400);
      expect(await json.text()).toContain('application/x-www-form-urlencoded');
      const huge = await post(`/forms/${form.id}`, { name: 'x'.repeat(300 * 1024) });
      expect(huge.status).toBe(413);
      expect(huge.headers.get('content-type')).toBe('text/html; charset=utf-8');
    });

    it('is gone with its owner’s account', async () => {
      const user = await registerAndSignIn(instance, {
        fullName: 'Gone',
        email: 'gone@example.com',
        password: 'gone-password',
      });
      const form = await create({ name: 'Theirs' }, user.token);
      expect((await page(`/forms/${form.id}`)).status).toBe(200);
      expect((await instance.request('DELETE', `/users/${user.id}`, { token: user.token })).status).toBe(204);
      expect((await page(`/forms/${form.id}`)).status).toBe(404);
    });
  });

  describe("a waiting run's form page", () => {
    /** A published flow whose run waits a week on a delay before its last step, its resume token set as a step would. */
    const waitingRun = async () => {
      const { flowId, call } = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
        () => ({ appKey: 'delay', key: 'delayFor', parameters: { delayForUnit: 'weeks', delayForValue: 1 } }),
        () => ({ appKey: 'formatter', key: 'text', parameters: { transform: 'uppercase', input: 'later' } }),
      ]);
      await call('PATCH', `/flows/${flowId}/status`, { active: true });
      await sendWebhook(instance, flowId, {});
      const [run] = await eventually<any[]>(
        async () => (await instance.request('GET', `/executions?flowId=${flowId}`, { token })).body.data,
        (runs) => runs[0]?.status === 'waiting',
      );
      const resumeToken = `token-${run.id}`;
      await rawExecute(
        instance.database.url,
        `update executions set resume_token = '${resumeToken}' where id = '${run.id}'`,
      );
      return { executionId: run.id as string, resumeToken };
    };

    it('renders the form, and hands the answers to the run as a form signal', async () => {
      const form = await create();
      const { executionId, resumeToken } = await waitingRun();
      const path = `/webhooks/runs/${executionId}/${resumeToken}/forms/${form.id}`;
      const shown = await page(`${path}?name=Ada`);
      expect(shown.status).toBe(200);
      // Under /webhooks, the page is sandboxed like every answer there.
      expect(shown.headers.get('content-security-policy')).toBe(
        'sandbox allow-scripts allow-forms allow-popups allow-modals',
      );
      const html = await shown.text();
      expect(html).toContain(
        `<form method="post" action="${path}?name=Ada">`.replace('">', '" accept-charset="utf-8">'),
      );
      expect(html).toContain('value="Ada"');

      const refused = await post(path, { name: 'Ada' });
      expect(refused.status).toBe(422);
      expect(await refused.text()).toContain('Email: is required.');
      expect(
        await rawQuery(instance.database.url, 'select * from run_signals where execution_id = ?', [executionId]),
      ).toEqual([]);

      const answered = await post(`${path}?source=mail`, {
        name: 'Ada',
        email: 'ada@example.com',
        'guests.0.name': 'Bob',
      });
      expect(answered.status).toBe(200);
      const reply = await answered.text();
      expect(reply).toContain('Thanks, we will write back.');
      expect(reply).not.toContain('Send another answer');
      const [signal] = await rawQuery(
        instance.database.url,
        'select kind, payload from run_signals where execution_id = ?',
        [executionId],
      );
      expect(signal.kind).toBe('form');
      expect(typeof signal.payload === 'string' ? JSON.parse(signal.payload) : signal.payload).toEqual({
        formId: form.id,
        answers: {
          name: 'Ada',
          email: 'ada@example.com',
          plan: '',
          message: '',
          guests: [{ name: 'Bob' }],
          source: 'mail',
        },
      });
    });

    it('answers a plain 404 page for a wrong token, another owner’s form, an unknown run', async () => {
      const form = await create();
      const others = await create({ name: 'Bob’s' }, bob.token);
      const { executionId, resumeToken } = await waitingRun();
      for (const path of [
        `/webhooks/runs/${executionId}/wrong-token/forms/${form.id}`,
        `/webhooks/runs/${executionId}/${resumeToken}/forms/${others.id}`,
        `/webhooks/runs/6f1f0000-0000-4000-8000-000000000000/${resumeToken}/forms/${form.id}`,
        `/webhooks/runs/${executionId}/${resumeToken}/forms/not-an-id`,
      ]) {
        const shown = await page(path);
        expect(shown.status, path).toBe(404);
        expect(await shown.text()).toContain('This link does not lead to a form any more');
        expect((await post(path, { name: 'Ada', email: 'ada@example.com' })).status, path).toBe(404);
      }
    });
  });
});
