import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/databases.js';
import { installAndSignIn, startTestInstance, type TestInstance } from '../support/http.js';

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
    const res = await instance.request('POST', '/graphql', {
      mount: '',
      token,
      body: {
        query: 'mutation ($input: UpdateStepInput) { updateStep(input: $input) { id name } }',
        variables: { input: { id: flow.steps[1]?.id, name: 'a\u0000b' } },
      },
    });
    expect(res.body.errors?.[0]?.extensions).toEqual({ code: 'ValidationError' });
  });

  it('leaves the rows as they were', async () => {
    const res = await instance.request('GET', `/flows/${flow.id}`, { token });
    expect(res.body.data.name).not.toContain('\u0000');
  });
});
