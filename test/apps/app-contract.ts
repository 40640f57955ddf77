import { describe, expect, it } from 'vitest';
import type { App } from '../../adapters/apps/index.js';
import type { ActionDefinition, TriggerDefinition } from '../../adapters/apps/sdk/index.js';
import { validate } from '../../adapters/apps/sdk/validation.js';
import {
  APP_CATEGORIES,
  type ArgumentDescription,
  type ArgumentType,
  type StepDescription,
} from '../../core/domain/app.js';

const ARGUMENT_TYPES: readonly ArgumentType[] = [
  'string',
  'number',
  'boolean',
  'dropdown',
  'keyValueList',
  'code',
  'json',
];

/**
 * Kebab, snake or camel case: `http-request`, `postgresql`, `SQLQuery`, `sendEmail`, and
 * Automatisch's snake-case keys kept as they are (its GitLab triggers `issues_events`, `push_events`
 * and their `branch_filter_strategy`).
 */
const SAFE_KEY = /^[A-Za-z][A-Za-z0-9]*([-_][A-Za-z0-9]+)*$/;

const duplicates = (keys: readonly string[]) => keys.filter((key, i) => keys.indexOf(key) !== i);

const expectWellFormedArgument = (argument: ArgumentDescription, siblings: readonly string[], app: App) => {
  expect(argument.key).toMatch(SAFE_KEY);
  expect(argument.label.trim()).not.toBe('');
  expect(ARGUMENT_TYPES).toContain(argument.type);
  expect(typeof argument.required).toBe('boolean');
  if (argument.type === 'dropdown') {
    expect(argument.options !== undefined || argument.dynamicData !== undefined).toBe(true);
  }
  if (argument.dynamicData) {
    expect(Object.keys(app.dynamicData)).toContain(argument.dynamicData.key);
    for (const dependency of argument.dynamicData.dependsOn) expect(siblings).toContain(dependency);
  }
  if (argument.type === 'code') expect(argument.language).toBeTruthy();
};

const describeSteps = (app: App, kind: string, steps: readonly (ActionDefinition | TriggerDefinition)[]) => {
  it(`has unique, safe ${kind} keys`, () => {
    const keys = steps.map((s) => s.key);
    expect(duplicates(keys)).toEqual([]);
    for (const key of keys) expect(key).toMatch(SAFE_KEY);
  });

  for (const step of steps) {
    describe(`${kind} ${step.key}`, () => {
      const manifest: StepDescription = step.manifest;

      it('has a name, a description and a run function', () => {
        expect(manifest.key).toBe(step.key);
        expect(manifest.name.trim()).not.toBe('');
        expect(manifest.description.trim()).not.toBe('');
        expect(typeof step.run).toBe('function');
        if (manifest.dynamicFieldsKey) expect(Object.keys(app.dynamicFields)).toContain(manifest.dynamicFieldsKey);
      });

      it('describes every argument it validates, each with a key, label, type and schema', () => {
        const keys = manifest.arguments.map((a) => a.key);
        expect(keys).toEqual(Object.keys(step.arguments));
        expect(duplicates(keys)).toEqual([]);
        for (const argument of manifest.arguments) {
          expectWellFormedArgument(argument, keys, app);
          const declared = step.arguments[argument.key];
          expect(declared?.schema).toBeDefined();
          expect(declared?.schema.kind).toBe('schema');
        }
      });

      it('refuses parameters without its required arguments, and only those', () => {
        const required = manifest.arguments.filter((a) => a.required && a.defaultValue === undefined);
        const parsed = validate(step.parameters, {});
        if (required.length === 0) expect(parsed.ok).toBe(true);
        else
          expect(parsed).toEqual({
            ok: false,
            fields: Object.fromEntries(required.map((a) => [a.key, ['is required.']])),
          });
      });
    });
  }
};

/**
 * What every app must satisfy to be registered: safe unique keys, complete serialisable
 * descriptions, arguments with schemas, and an auth definition consistent with its kind.
 */
export const describeAppContract = (app: App) => {
  describe(`app ${app.key}`, () => {
    it('has a safe key and complete metadata', () => {
      expect(app.key).toMatch(SAFE_KEY);
      expect(app.manifest.key).toBe(app.key);
      expect(app.manifest.name.trim()).not.toBe('');
      expect(app.manifest.description.trim()).not.toBe('');
      expect(app.manifest.iconUrl.trim()).not.toBe('');
      expect(app.manifest.primaryColor).toMatch(/^#[0-9a-f]{6}$/i);
      expect(Number.isInteger(app.manifest.version) && app.manifest.version > 0).toBe(true);
      expect(app.triggers.length + app.actions.length).toBeGreaterThan(0);
    });

    it("sits in at least one of the app picker's categories", () => {
      expect(app.manifest.categories.length).toBeGreaterThan(0);
      for (const category of app.manifest.categories) expect(APP_CATEGORIES).toContain(category);
      expect(duplicates(app.manifest.categories)).toEqual([]);
    });

    it('reaches its vendor over https, at an address the instance may override', () => {
      if (app.http.baseUrl !== undefined) expect(new URL(app.http.baseUrl).protocol).toBe('https:');
    });

    it('has an SVG icon that runs and fetches nothing', () => {
      expect(app.icon.trim()).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*<\/svg>$/);
      expect(app.icon).not.toMatch(/<script|<foreignObject|\son\w+=|href=|url\(/i);
    });

    it('serialises its description to JSON and back unchanged', () => {
      expect(JSON.parse(JSON.stringify(app.manifest))).toStrictEqual(app.manifest);
    });

    it('has an auth definition consistent with its kind', () => {
      const { auth } = app.manifest;
      expect(auth.kind).toBe(app.auth.kind);
      const keys = [...auth.fields, ...auth.clientFields].map((f) => f.key);
      expect(duplicates(keys)).toEqual([]);
      for (const field of [...auth.fields, ...auth.clientFields]) expectWellFormedArgument(field, keys, app);
      switch (app.auth.kind) {
        case 'none':
          expect(auth.fields).toEqual([]);
          expect(auth.clientFields).toEqual([]);
          break;
        case 'fields':
          expect(auth.fields.length).toBeGreaterThan(0);
          expect(auth.clientFields).toEqual([]);
          expect(typeof app.auth.verify).toBe('function');
          for (const field of auth.fields) {
            if (/password|secret|token|key$/i.test(field.key)) expect(field.secret).toBe(true);
          }
          break;
        case 'oauth2': {
          expect(auth.clientFields.map((f) => f.key)).toEqual(expect.arrayContaining(['clientId', 'clientSecret']));
          expect(auth.clientFields.find((f) => f.key === 'clientSecret')?.secret).toBe(true);
          expect(typeof app.auth.profile).toBe('function');
          // A PKCE app's consent URL carries the challenge of a verifier the caller keeps.
          const verifier = app.auth.pkce ? { codeVerifier: 'contract-verifier-0123456789-abcdefghijklmnopqrst' } : {};
          // A provider with a server per account (Zendesk's subdomain) has its address as a required
          // client setting: the contract takes the example its placeholder gives.
          const settings = Object.fromEntries(
            auth.clientFields
              .filter((f) => f.required && f.key !== 'clientId' && f.key !== 'clientSecret')
              .map((f) => [f.key, f.placeholder]),
          );
          const url = new URL(
            app.auth.authorizationUrl(
              { ...settings, clientId: 'contract-client', clientSecret: 'contract-secret' },
              { redirectUri: 'https://conveyor.test/callback', state: 'contract-state', ...verifier },
            ),
          );
          if (app.auth.pkce) expect(url.searchParams.get('code_challenge_method')).toBe('S256');
          expect(url.protocol).toBe('https:');
          expect(url.searchParams.get('client_id')).toBe('contract-client');
          expect(url.searchParams.get('redirect_uri')).toBe('https://conveyor.test/callback');
          expect(url.searchParams.get('state')).toBe('contract-state');
          expect(url.searchParams.get('response_type')).toBe('code');
          expect(url.toString()).not.toContain('contract-secret');
          break;
        }
      }
    });

    describeSteps(app, 'trigger', app.triggers);
    describeSteps(app, 'action', app.actions);

    it('lists only dynamic data and fields its arguments use', () => {
      const used = [...app.manifest.triggers, ...app.manifest.actions].flatMap((s) =>
        s.arguments.flatMap((a) => (a.dynamicData ? [a.dynamicData.key] : [])),
      );
      for (const key of Object.keys(app.dynamicData)) expect(used).toContain(key);
      const fieldKeys = [...app.manifest.triggers, ...app.manifest.actions].flatMap((s) =>
        s.dynamicFieldsKey ? [s.dynamicFieldsKey] : [],
      );
      for (const key of Object.keys(app.dynamicFields)) expect(fieldKeys).toContain(key);
    });
  });
};
