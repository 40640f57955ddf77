import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { apiReport, REPORT_FILE } from '../../scripts/api-report.js';

// The package's exported surface is a promise (docs/embedding.md): a change to it is made on
// purpose, with the report, never by accident.
it('exports what api-report.md lists, entry point by entry point', () => {
  const checkedIn = readFileSync(REPORT_FILE, 'utf8');
  expect(
    apiReport() === checkedIn,
    'The exported API differs from api-report.md: run `npm run api-report`, review the difference (a removed or changed name is a breaking change) and commit it.',
  ).toBe(true);
}, 60_000);
