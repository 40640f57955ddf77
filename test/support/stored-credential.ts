import { expect } from 'vitest';
import { loadConfig } from '../../composition/config.js';
import { startInstance } from '../../composition/instance.js';

const SMTP = { host: 'smtp.example.com', port: 587, fromEmail: 'robot@example.com', password: 'hunter2' };

/** A started instance with one admin and one SMTP connection: one sealed credential. */
export const storeOneCredential = async (env: Record<string, string>) => {
  const conveyor = await startInstance(loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', QUEUE: 'local', ...env }));
  try {
    const admin = { email: 'ada@example.com', password: 'a long password', fullName: 'Ada' };
    const json = { 'content-type': 'application/json' };
    await conveyor.app.request('/api/v1/installation/users', {
      method: 'POST',
      headers: json,
      body: JSON.stringify(admin),
    });
    const signedIn = await conveyor.app.request('/api/v1/access-tokens', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: admin.email, password: admin.password }),
    });
    const { token } = ((await signedIn.json()) as { data: { token: string } }).data;
    const created = await conveyor.app.request('/api/v1/apps/smtp/connections', {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}` },
      body: JSON.stringify({ formattedData: SMTP }),
    });
    expect(created.status).toBe(201);
  } finally {
    await conveyor.close();
  }
};
