import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { builtInApps } from '../../adapters/apps/index.js';
import { CATALOGUE_FILE, catalogueFile, normalizeTables } from '../../scripts/app-catalogue.js';

it('docs/apps/README.md lists every built-in app as the apps define it (npm run app-catalogue)', () => {
  const current = readFileSync(CATALOGUE_FILE, 'utf8');
  expect(normalizeTables(current).trimEnd()).toBe(normalizeTables(catalogueFile(current)).trimEnd());
});

it('offers at least 52 apps', () => {
  expect(builtInApps.length).toBeGreaterThanOrEqual(52);
});
