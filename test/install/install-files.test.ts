import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

interface LockPackage {
  readonly optionalDependencies?: Record<string, string>;
  readonly dev?: boolean;
}

describe('the install files', () => {
  it('lock every optional package of every platform, so npm ci works on any machine', () => {
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, LockPackage> };
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        // npm looks for an optional dependency beside the package first, then up the tree.
        const nested = `${path}/node_modules/${name}`;
        if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`]) missing.push(`${name} (of ${path})`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('state one minimum Node.js version, the one package.json enforces', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const minimum = /^>=(\d+\.\d+)$/.exec(engines)?.[1];
    expect(minimum).toBeDefined();
    for (const doc of ['README.md', 'docs/operations.md']) {
      const stated = [...read(doc).matchAll(/Node\.js (\d+\.\d+) or later/g)].map((m) => m[1]);
      expect({ doc, stated }).toEqual({ doc, stated: stated.map(() => minimum) });
      expect(stated.length).toBeGreaterThan(0);
    }
  });

  it('CI installs with npm ci, from the lockfile as committed', () => {
    expect(read('.ci/run')).toMatch(/^npm ci\b/m);
  });
});
