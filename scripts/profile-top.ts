/**
 * The top of a V8 CPU profile (`--cpu-prof`, as `BENCH_PROFILE=dir npm run bench` writes one per
 * process): the functions that spent the most time themselves, as shares of the whole profile.
 * `npx tsx scripts/profile-top.ts <file.cpuprofile> [count]` prints it; the bench prints it for
 * each process it profiled.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface Profile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Where a function is: a dependency by its package, Conveyor's files from the repository's root. */
const placeOf = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/dist\//, '');

export const profileTop = (file: string, count = 20): string[] => {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const names = new Map(
    profile.nodes.map((node) => {
      const { functionName, url, lineNumber } = node.callFrame;
      return [node.id, url ? `${functionName || '(anonymous)'} ${placeOf(url)}:${lineNumber + 1}` : functionName];
    }),
  );
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const micros = profile.timeDeltas[i] ?? 0;
    const name = names.get(id) ?? '?';
    self.set(name, (self.get(name) ?? 0) + micros);
    total += micros;
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, micros]) => `${((100 * micros) / Math.max(1, total)).toFixed(1).padStart(5)}%  ${name}`);
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, count] = process.argv.slice(2);
  if (!file) throw new Error('usage: npx tsx scripts/profile-top.ts <file.cpuprofile> [count]');
  for (const line of profileTop(file, Number(count ?? 20))) console.log(line);
}
