import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtInApps } from '../../adapters/apps/index.js';
import { defineAction, defineApp, fieldsAuth, text } from '../../adapters/apps/sdk/index.js';
import { DIALECTS } from '../support/databases.js';
import { enterpriseEnv } from '../support/enterprise.js';
import { hooksApp, NOTES_CREDENTIALS, notesApp } from '../support/flow-apps.js';
import { ADMIN, installAndSignIn, signIn, startTestInstance } from '../support/http.js';

/** The notes app as a later release ships it: `addNote` now needs a shelf. */
const notesAppV3 = defineApp({
  key: notesApp.key,
  name: notesApp.manifest.name,
  description: notesApp.manifest.description,
  icon: notesApp.icon,
  primaryColor: notesApp.manifest.primaryColor,
  version: 3,
  auth: fieldsAuth({
    fields: { owner: text({ label: 'Owner', required: true }), apiKey: text({ label: 'API key', required: true }) },
    verify: async (ctx) => ({ screenName: ctx.auth.data.owner }),
  }),
  triggers: [],
  actions: [
    defineAction({
      key: 'addNote',
      name: 'Add a note',
      description: 'Puts a note on a shelf.',
      arguments: { title: text({ label: 'Title', required: true }), shelf: text({ label: 'Shelf', required: true }) },
      run: async (ctx) => ctx.parameters,
    }),
  ],
});

describe.each(DIALECTS)('steps built for an older app version (%s)', (dialect) => {
  it('stop a flow from being published once the app no longer accepts them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conveyor-versions-'));
    const env = { ...enterpriseEnv(), ...(dialect === 'sqlite' && { DATABASE_URL: join(dir, 'conveyor.db') }) };
    const before = await startTestInstance(dialect, env, { apps: [...builtInApps, hooksApp, notesApp] });
    const url = env.DATABASE_URL ?? before.database.url;
    let flowId = '';
    let actionId = '';
    try {
      const token = await installAndSignIn(before);
      const call = async (method: string, path: string, body?: unknown) =>
        (await before.request(method, path, { token, ...(body !== undefined && { body }) })).body.data;
      const flow = await call('POST', '/flows');
      flowId = flow.id;
      actionId = flow.steps[1].id;
      const connection = await call('POST', '/apps/test-notes/connections', { formattedData: NOTES_CREDENTIALS });
      await call('PATCH', `/steps/${flow.steps[0].id}`, { appKey: 'test-webhook', key: 'catchRawWebhook' });
      const step = await call('PATCH', `/steps/${actionId}`, {
        appKey: 'test-notes',
        key: 'addNote',
        connectionId: connection.id,
        parameters: { title: 'Hello' },
      });
      expect(step).toMatchObject({ status: 'completed', appVersion: 2 });
    } finally {
      await before.conveyor.close();
    }

    const after = await startTestInstance(
      dialect,
      { ...env, DATABASE_URL: url },
      {
        apps: [...builtInApps, hooksApp, notesAppV3],
      },
    );
    try {
      const token = await signIn(after, ADMIN.email, ADMIN.password);
      const flow = (await after.request('GET', `/flows/${flowId}`, { token })).body.data;
      // Built for version 2, the step no longer passes: it shows as incomplete until it is redone.
      expect(flow.steps[1]).toMatchObject({ status: 'incomplete', appVersion: 2 });
      const refused = await after.request('PATCH', `/flows/${flowId}/status`, { token, body: { active: true } });
      expect(refused.status).toBe(422);
      expect(refused.body.meta.type).toBe('IncompleteStepsError');

      const updated = await after.request('PATCH', `/steps/${actionId}`, {
        token,
        body: { parameters: { title: 'Hello', shelf: 'top' } },
      });
      expect(updated.body.data).toMatchObject({ status: 'completed', appVersion: 3 });
      const published = await after.request('PATCH', `/flows/${flowId}/status`, { token, body: { active: true } });
      expect(published.status).toBe(200);
    } finally {
      await after.close();
      await before.database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
