import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

// The guide's example is the one CI installs, type checks and runs (packed-install.test.ts).
it('shows in docs/embedding.md the example examples/embed runs, word for word', () => {
  expect(read('docs/embedding.md')).toContain(`\`\`\`ts\n${read('examples/embed/src/main.ts')}\`\`\``);
});
