import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { buildFlow, finishedRun, sendWebhook } from '../support/engine-flows.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

const renameStepInGraphql = (instance: TestInstance, token: string, id: string | undefined, name: string) =>
  instance.request('POST', '/graphql', {
    mount: '',
    token,
    body: {
      query: 'mutation ($input: UpdateStepInput) { updateStep(input: $input) { id name } }',
      variables: { input: { id, name } },
    },
  });

/**
 * Postgres holds no NUL character (U+0000), in text or in JSON. Found by the fuzz suite: any input
 * carrying one, to any route, was a 500; it is the client's input, so a 422 in the usual shape.
 */
describe.skipIf(!DIALECTS.includes('postgres'))('text with a NUL character (postgres)', () => {
  let instance: TestInstance;
  let token: string;
  let flow: { id: string; steps: { id: string }[] };
  beforeAll(async () => {
    instance = await startTestInstance('postgres');
    token = await installAndSignIn(instance);
    flow = (await instance.request('POST', '/flows', { token })).body.data;
  });
  afterAll(() => instance.close());

  const REFUSED = {
    errors: { general: ['Text may not contain the NUL character (U+0000).'] },
    meta: { type: 'ValidationError' },
  };

  it('is refused with a 422 in a text column, a JSON column and a query', async () => {
    const renamed = await instance.request('PATCH', `/flows/${flow.id}`, { token, body: { name: 'a\u0000b' } });
    expect({ status: renamed.status, body: renamed.body }).toEqual({ status: 422, body: REFUSED });
    const step = await instance.request('PATCH', `/steps/${flow.steps[1]?.id}`, {
      token,
      body: { parameters: { note: 'a\u0000b' } },
    });
    expect({ status: step.status, body: step.body }).toEqual({ status: 422, body: REFUSED });
    const listed = await instance.request('GET', '/flows?name=a%00b', { token });
    expect({ status: listed.status, body: listed.body }).toEqual({ status: 422, body: REFUSED });
  });

  it('is a ValidationError in GraphQL too', async () => {
    const res = await renameStepInGraphql(instance, token, flow.steps[1]?.id, 'a\u0000b');
    expect(res.body.errors?.[0]?.extensions).toEqual({ code: 'ValidationError' });
  });

  it('leaves the rows as they were', async () => {
    const res = await instance.request('GET', `/flows/${flow.id}`, { token });
    expect(res.body.data.name).not.toContain('\u0000');
  });
});

/**
 * A JSON string may spell a lone UTF-16 surrogate (`"\udc00"`), which no UTF-8 text can hold:
 * Postgres refused it in JSON (22P02, a 500) and silently replaced it in text columns. Both are now
 * the client's 422, on every route, the unauthenticated webhook included.
 */
describe.skipIf(!DIALECTS.includes('postgres'))('text with a lone surrogate (postgres)', () => {
  let instance: TestInstance;
  let token: string;
  let flow: { id: string; steps: { id: string }[] };
  let hook: string;
  beforeAll(async () => {
    instance = await startTestInstance('postgres');
    token = await installAndSignIn(instance);
    flow = (await instance.request('POST', '/flows', { token })).body.data;
    const trigger = flow.steps[0]?.id;
    const res = await instance.request('PATCH', `/steps/${trigger}`, {
      token,
      body: { appKey: 'webhook', key: 'catchRawWebhook' },
    });
    expect(res.status).toBe(200);
    hook = `/webhooks/flows/${flow.id}`;
  });
  afterAll(() => instance.close());

  const REFUSED = {
    errors: { general: ['Text may not contain a lone surrogate (U+D800 to U+DFFF).'] },
    meta: { type: 'ValidationError' },
  };
  const webhook = async (path: string, init: RequestInit = {}) => {
    const res = await instance.conveyor.app.request(path, init);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };

  it('is refused with a 422 in a JSON column, a text column and a JSON key', async () => {
    for (const parameters of [{ note: 'a\udc00b' }, { note: 'end\ud800' }, { 'key\udfff': 1 }]) {
      const step = await instance.request('PATCH', `/steps/${flow.steps[1]?.id}`, { token, body: { parameters } });
      expect({ status: step.status, body: step.body }).toEqual({ status: 422, body: REFUSED });
    }
    const renamed = await instance.request('PATCH', `/flows/${flow.id}`, { token, body: { name: 'a\udc00b' } });
    expect({ status: renamed.status, body: renamed.body }).toEqual({ status: 422, body: REFUSED });
  });

  it('is refused with a 422 in a webhook’s JSON body, stored as the trigger’s output', async () => {
    const sent = await webhook(hook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"order":"a\\udc00b"}',
    });
    expect(sent).toEqual({ status: 422, body: REFUSED });
  });

  it('keeps what a query string or a header can carry: they hold no lone surrogate', async () => {
    // Percent-encoded surrogate bytes are not UTF-8: they stay as sent. Header values are bytes.
    expect((await webhook(`${hook}?q=%ED%B0%80&q=x`)).status).toBe(204);
    expect((await webhook(hook, { headers: { 'x-note': 'caf\u00e9 \u00ed\u00b0\u0080' } })).status).toBe(204);
    const listed = await instance.request('GET', '/flows?name=%ED%B0%80', { token });
    expect(listed.status).toBe(200);
  });

  it('is a ValidationError in GraphQL too', async () => {
    const res = await renameStepInGraphql(instance, token, flow.steps[1]?.id, 'a\udc00b');
    expect(res.body.errors?.[0]?.extensions).toEqual({ code: 'ValidationError' });
  });

  it('leaves the rows as they were, and well-formed text outside the BMP passes', async () => {
    const res = await instance.request('GET', `/flows/${flow.id}`, { token });
    expect(res.body.data.name).not.toMatch(/\p{Cs}|\ufffd/u);
    const emoji = await instance.request('PATCH', `/flows/${flow.id}`, { token, body: { name: 'ship \ud83d\udea2' } });
    expect(emoji.status).toBe(200);
    expect(emoji.body.data.name).toBe('ship 🚢');
    // A backslash and the letters of an escape are just text.
    const spelled = await instance.request('PATCH', `/steps/${flow.steps[1]?.id}`, {
      token,
      body: { parameters: { path: 'C:\\udc00' } },
    });
    expect(spelled.status).toBe(200);
    expect(spelled.body.data.parameters).toEqual({ path: 'C:\\udc00' });
  });
});

/**
 * A step's own result may hold what Postgres cannot store (a code step's string, an HTTP answer's
 * binary body): its record failed on every attempt and the run was retried for ever. The step fails
 * now, saying why, and the run ends.
 */
describe.skipIf(!DIALECTS.includes('postgres'))('a step result Postgres cannot store (postgres)', () => {
  let instance: TestInstance;
  let token: string;
  beforeAll(async () => {
    instance = await startTestInstance('postgres');
    token = await installAndSignIn(instance);
  });
  afterAll(() => instance.close());

  const runOf = async (source: string) => {
    const flow = await buildFlow(instance, token, { appKey: 'webhook', key: 'catchRawWebhook' }, [
      () => ({ appKey: 'code', key: 'runJavascript', parameters: { inputs: [], codeSnippet: source } }),
    ]);
    await flow.call('PATCH', `/flows/${flow.flowId}/status`, { active: true });
    await sendWebhook(instance, flow.flowId, { hello: 'world' });
    return finishedRun(instance, token, flow.flowId);
  };

  it('fails the step with the reason instead of retrying its record', async () => {
    for (const [source, reason] of [
      ['function code() { return "a\\u0000b" }', /NUL character/],
      ['function code() { return { text: "a\\udc00b" } }', /lone UTF-16 surrogate/],
    ] as const) {
      const run = await runOf(source);
      expect(run.status).toBe('failure');
      expect(run.steps[1]).toMatchObject({ status: 'failure', dataOut: null });
      expect(run.steps[1].errorDetails.message).toMatch(reason);
    }
  });
});
