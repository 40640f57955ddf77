import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/clock.js';
import { DIALECTS } from '../support/databases.js';
import { ADMIN, installAndSignIn, signIn, startTestInstance, type TestInstance } from '../support/http.js';
import { type SmtpSink, startSmtpSink } from '../support/smtp-sink.js';

const resetToken = (text: string): string => {
  const match = /http:\/\/conveyor\.test\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no reset link in:\n${text}`);
  return match[1];
};

describe.each(DIALECTS)('forgot and reset password over real SMTP (%s)', (dialect) => {
  let smtp: SmtpSink;
  let instance: TestInstance;
  let clock: ManualClock;
  beforeAll(async () => {
    smtp = await startSmtpSink();
  });
  afterAll(() => smtp.close());
  beforeEach(async () => {
    smtp.received.length = 0;
    clock = new ManualClock();
    instance = await startTestInstance(dialect, { SMTP_URL: smtp.url }, { clock });
  });
  afterEach(() => instance.close());

  const forgot = (email: string) => instance.request('POST', '/users/forgot-password', { body: { email } });
  const reset = (token: string, password: string) =>
    instance.request('POST', '/users/reset-password', { body: { token, password } });

  it('mails a link built from WEB_APP_URL, and the token resets the password once', async () => {
    const session = await installAndSignIn(instance);
    expect((await forgot(ADMIN.email.toUpperCase())).status).toBe(204);

    const mail = await smtp.waitFor(ADMIN.email);
    expect(mail.subject).toBe('Reset your Conveyor password');
    const token = resetToken(mail.text);

    expect((await reset(token, 'the new password')).status).toBe(204);
    await expect(signIn(instance, ADMIN.email, 'the new password')).resolves.toBeTypeOf('string');
    // Every session of the account ends with a reset.
    expect((await instance.request('GET', '/users/me', { token: session })).status).toBe(401);

    const reused = await reset(token, 'another password');
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ errors: { token: ['is invalid or expired.'] }, meta: { type: 'ValidationError' } });
  });

  it('answers 204 for an unknown address and sends nothing', async () => {
    await installAndSignIn(instance);
    expect((await forgot('nobody@example.com')).status).toBe(204);
    await expect(smtp.waitFor('nobody@example.com', 300)).rejects.toThrow(/no mail/);
  });

  it('refuses an expired token', async () => {
    await installAndSignIn(instance);
    await forgot(ADMIN.email);
    const token = resetToken((await smtp.waitFor(ADMIN.email)).text);
    clock.advance(30 * 60_000 + 1);
    expect((await reset(token, 'too late password')).status).toBe(422);
    await expect(signIn(instance, ADMIN.email, ADMIN.password)).resolves.toBeTypeOf('string');
  });

  it('supersedes an earlier link when a new one is requested', async () => {
    await installAndSignIn(instance);
    await forgot(ADMIN.email);
    const first = resetToken((await smtp.waitFor(ADMIN.email)).text);
    smtp.received.length = 0;
    await forgot(ADMIN.email);
    const second = resetToken((await smtp.waitFor(ADMIN.email)).text);
    expect((await reset(first, 'first link password')).status).toBe(422);
    expect((await reset(second, 'second link password')).status).toBe(204);
  });

  it('refuses made-up tokens and validates the new password', async () => {
    expect((await reset('made-up-token', 'whatever password')).status).toBe(422);
    const short = await reset('made-up-token', 'short');
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual({ password: ['must be at least 8 characters.'] });
  });

  it('rate limits forgot-password per account with 429', async () => {
    await installAndSignIn(instance);
    for (let i = 0; i < 5; i++) expect((await forgot(ADMIN.email)).status).toBe(204);
    const limited = await forgot(ADMIN.email);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // Another account from the same address still has budget.
    expect((await forgot('someone-else@example.com')).status).toBe(204);
  });

  it('takes its budgets from the environment', async () => {
    await instance.close();
    instance = await startTestInstance(
      dialect,
      { SMTP_URL: smtp.url, RATE_LIMIT_FORGOT_PASSWORD: '2/10m', RATE_LIMIT_FORGOT_PASSWORD_IP: '3/1h' },
      { clock },
    );
    await installAndSignIn(instance);
    expect([(await forgot(ADMIN.email)).status, (await forgot(ADMIN.email)).status]).toEqual([204, 204]);
    const perAccount = await forgot(ADMIN.email);
    expect(perAccount.status).toBe(429);
    expect(perAccount.headers.get('retry-after')).toBe('600');
    clock.advance(10 * 60_000);
    // The account's window has passed; the address has now asked three times in its hour.
    expect((await forgot('someone-else@example.com')).status).toBe(429);
  });

  it('validates the e-mail', async () => {
    const res = await instance.request('POST', '/users/forgot-password', { body: { email: 12 } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ email: ['must be a string.'] });
  });
});
