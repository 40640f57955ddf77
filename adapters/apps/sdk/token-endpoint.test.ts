import { describe, expect, it } from 'vitest';
import type { HttpClient, HttpRequest } from './http-client.js';
import { requestTokens, type TokenClient } from './token-endpoint.js';

/** An HttpClient that records the token request and answers a grant. */
const recording = () => {
  const sent: HttpRequest[] = [];
  const http: HttpClient = {
    async request<T>(request: HttpRequest) {
      sent.push(request);
      return { status: 200, headers: { 'content-type': 'application/json' }, data: { access_token: 'at' } as T };
    },
  };
  return { http, sent };
};

const basic = `Basic ${Buffer.from('id:s3cret').toString('base64')}`;
const client = (options: Partial<TokenClient>): TokenClient => ({
  id: 'id',
  secret: 's3cret',
  authentication: 'body',
  ...options,
});

describe('requestTokens', () => {
  it('sends a form by default, the client id in it, the secret in it or as Basic', async () => {
    const { http, sent } = recording();
    await requestTokens(http, 'https://auth.test/token', { grant_type: 'authorization_code', code: 'c' }, client({}));
    await requestTokens(
      http,
      'https://auth.test/token',
      { grant_type: 'refresh_token' },
      client({ authentication: 'basic' }),
    );
    expect(String(sent[0]?.body)).toBe('grant_type=authorization_code&code=c&client_id=id&client_secret=s3cret');
    expect(String(sent[1]?.body)).toBe('grant_type=refresh_token&client_id=id');
    expect(sent[1]?.headers?.authorization).toBe(basic);
  });

  it('sends JSON where the client says so, naming a Basic client only in the header', async () => {
    const { http, sent } = recording();
    const tokens = await requestTokens(
      http,
      'https://auth.test/token',
      { grant_type: 'authorization_code', code: 'c', redirect_uri: 'https://app.test/cb' },
      client({ authentication: 'basic', format: 'json' }),
    );
    expect(tokens).toEqual({ accessToken: 'at' });
    expect(sent[0]?.body).toEqual({ grant_type: 'authorization_code', code: 'c', redirect_uri: 'https://app.test/cb' });
    expect(sent[0]?.headers?.authorization).toBe(basic);
    await requestTokens(http, 'https://auth.test/token', { grant_type: 'refresh_token' }, client({ format: 'json' }));
    expect(sent[1]?.body).toEqual({ grant_type: 'refresh_token', client_id: 'id', client_secret: 's3cret' });
  });
});
