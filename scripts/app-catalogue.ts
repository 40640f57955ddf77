/**
 * Writes the table of every built-in app into docs/apps/README.md (below its marker): name, key,
 * categories, connection, triggers with their kind, actions. test/apps/app-catalogue.test.ts fails
 * when the table no longer matches the apps; `npm run app-catalogue` writes it anew.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtInApps } from '../adapters/apps/index.js';
import type { AppDescription } from '../core/domain/app.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CATALOGUE_FILE = join(ROOT, 'docs/apps/README.md');
export const MARKER = '<!-- The table below is written by `npm run app-catalogue`. -->';

const CONNECTION: Record<AppDescription['auth']['kind'], string> = {
  none: 'none',
  fields: 'fields',
  oauth2: 'OAuth2',
};

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');

/** Where an app's page is: its own under docs/apps/, or its entry in app-sdk.md. */
const pageOf = (app: AppDescription) =>
  existsSync(join(ROOT, 'docs/apps', `${app.key}.md`))
    ? `${app.key}.md`
    : `../app-sdk.md#${anchor(`${app.key} (${app.name})`)}`;

/** Tables as the formatter pads them, and as written: the same once cells are trimmed. */
export const normalizeTables = (text: string) =>
  text
    .split('\n')
    .map((line) => (line.startsWith('|') ? line.replace(/ *\| */g, '|').replace(/\|-+(?=\|)/g, '|-') : line))
    .join('\n');

const steps = (list: AppDescription['triggers'], typed: boolean) =>
  list.length === 0
    ? '—'
    : list.map((step) => `\`${step.key}\`${typed ? ` (${step.type ?? 'engine'})` : ''}`).join(', ');

export const catalogueTable = (apps: readonly AppDescription[]): string => {
  const rows = [...apps]
    .sort((a, b) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key))
    .map((app) =>
      [
        `[${app.name}](${pageOf(app)})`,
        `\`${app.key}\``,
        app.categories.join(', '),
        `${CONNECTION[app.auth.kind]}${app.auth.optional ? ' (optional)' : ''}`,
        steps(app.triggers, true),
        steps(app.actions, false),
      ].join(' | '),
    );
  return [
    `${apps.length} apps.`,
    '',
    '| App | Key | Categories | Connection | Triggers (kind) | Actions |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row} |`),
    '',
  ].join('\n');
};

/** The README with the table as the apps define it now. */
export const catalogueFile = (current: string): string => {
  const at = current.indexOf(MARKER);
  const head = at === -1 ? `${current.trimEnd()}\n\n` : current.slice(0, at);
  return `${head}${MARKER}\n\n${catalogueTable(builtInApps.map((app) => app.manifest))}`;
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(CATALOGUE_FILE, catalogueFile(readFileSync(CATALOGUE_FILE, 'utf8')));
  console.log(`wrote ${CATALOGUE_FILE}`);
}
