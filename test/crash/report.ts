import type { DialectName } from '../support/databases.js';
import type { Cluster } from './cluster.js';

/** Error log lines grouped by process kind, message and error message, with their counts. */
const errorKinds = (lines: readonly string[]) => {
  const kinds = new Map<string, number>();
  for (const line of lines) {
    const [name = '', json = '{}'] = line.split(/: (.*)/s);
    const entry = JSON.parse(json) as { msg?: string; err?: string | { message?: string } };
    const err = typeof entry.err === 'string' ? entry.err : (entry.err?.message ?? '');
    const kind = `${name.replace(/ \d+$/, '')}: ${entry.msg}: ${err}`.slice(0, 300);
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return [...kinds].sort((a, b) => b[1] - a[1]);
};

/**
 * Prints a crash case's figures on one line, then the cluster's error log lines by kind and the
 * output of every process that exited without being killed.
 */
export const report = (
  suite: string,
  dialect: DialectName,
  figures: Record<string, number | string>,
  cluster: Cluster,
) => {
  process.stdout.write(
    `\n${suite} (${dialect}): ${Object.entries(figures)
      .map(([name, value]) => `${name} ${value}`)
      .join(', ')}\n`,
  );
  process.stdout.write(`\nerror log lines, by process and message:\n`);
  for (const [kind, n] of errorKinds(cluster.errorLines())) process.stdout.write(`  ${n} x ${kind}\n`);
  for (const exit of cluster.unexpectedExits)
    process.stdout.write(`\n${exit.name} exited by itself (code ${exit.code}):\n${exit.output}\n`);
};
