import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtInApps } from '../../adapters/apps/index.js';
import type { AuthKind } from '../../core/domain/app.js';

/**
 * docs/app-sdk.md's "Built-in apps" (the core and data apps) and docs/apps/<key>.md (the SaaS
 * apps): one `### \`key\` (Name)` entry per app.
 */
const doc = readFileSync(new URL('../../docs/app-sdk.md', import.meta.url), 'utf8');
const appsFolder = new URL('../../docs/apps/', import.meta.url);
const appPages = readdirSync(appsFolder)
  .filter((name) => name.endsWith('.md') && name !== 'README.md')
  .map((name) => `\n${readFileSync(new URL(name, appsFolder), 'utf8')}`);
const section = [doc.slice(doc.indexOf('\n## Built-in apps\n')), ...appPages].join('\n');
const entries = new Map(
  section
    .split(/\n### /)
    .slice(1)
    .map((entry) => {
      const heading = /^`([^`]+)` \(([^)\n]+)\)\n/.exec(entry);
      return [heading?.[1] ?? entry, { name: heading?.[2], text: entry }] as const;
    }),
);

const CONNECTION: Record<AuthKind, RegExp> = {
  none: /^- Connection: none\./m,
  fields: /^- Connection: fields /m,
  oauth2: /^- Connection: OAuth2 /m,
};

describe('docs/app-sdk.md and docs/apps/', () => {
  it('has an entry for every built-in app, and for no other', () => {
    expect([...entries.keys()].sort()).toEqual(builtInApps.map((app) => app.key).sort());
  });

  for (const app of builtInApps) {
    it(`describes ${app.key} as its code defines it`, () => {
      const { manifest } = app;
      const entry = entries.get(app.key);
      expect(entry?.name).toBe(manifest.name);
      const text = entry?.text ?? '';
      expect(text).toMatch(CONNECTION[manifest.auth.kind]);
      const steps = [...manifest.triggers, ...manifest.actions];
      const keys = [
        ...manifest.auth.fields.map((field) => field.key),
        ...manifest.auth.clientFields.map((field) => field.key),
        ...steps.flatMap((step) => [step.key, ...step.arguments.map((argument) => argument.key)]),
        ...Object.keys(app.dynamicData),
        ...Object.keys(app.dynamicFields),
      ];
      expect(keys.filter((key) => !text.includes(`\`${key}\``))).toEqual([]);
      // A trigger without a type is one the engine starts.
      for (const trigger of manifest.triggers)
        expect(text).toMatch(new RegExp(`${trigger.type ?? 'engine'} triggers?`, 'i'));
      if (manifest.triggers.length === 0) expect(text).not.toMatch(/trigger/i);
      if (manifest.actions.length === 0) expect(text).not.toMatch(/\baction/i);
      if (Object.keys(app.dynamicData).length === 0) expect(text).toMatch(/Dynamic data( and fields)?: none\./);
      if (Object.keys(app.dynamicFields).length === 0) expect(text).toMatch(/Dynamic (data and )?fields: none\./);
    });
  }
});
