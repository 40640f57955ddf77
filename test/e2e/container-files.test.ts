import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_VARIABLES } from '../../composition/config.js';

// No container engine runs where Conveyor is developed, so the Dockerfile and compose.yaml cannot
// be built here. What can drift silently is checked instead: the variables they set are ones
// Conveyor reads, the commands they run are the CLI's, and the image's Node.js is one it supports.
const dockerfile = readFileSync('Dockerfile', 'utf8');
const compose = readFileSync('compose.yaml', 'utf8');
const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as {
  bin: { conveyor: string };
  engines: { node: string };
};

/** `ENV A=1 \ B=2` of the Dockerfile, continuation lines included. */
const dockerfileVariables = (): string[] => {
  const instruction = /^ENV ((?:.*\\\n)*.*)$/m.exec(dockerfile)?.[1] ?? '';
  return [...instruction.matchAll(/([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1] as string);
};

/** Keys in compose.yaml's `environment:` maps, but the Postgres image's own. */
const composeVariables = (): string[] =>
  [...compose.matchAll(/^\s+([A-Z][A-Z0-9_]*):/gm)]
    .map((m) => m[1] as string)
    .filter((n) => !n.startsWith('POSTGRES_'));

describe('the container files', () => {
  it('set only variables Conveyor reads', () => {
    const set = [...dockerfileVariables(), ...composeVariables()];
    expect(set).toEqual(
      expect.arrayContaining(['DATA_DIR', 'DATABASE_URL', 'ENCRYPTION_KEY', 'HOST', 'SERVER_RUNS_FLOWS']),
    );
    expect(set.filter((name) => !ENVIRONMENT_VARIABLES.includes(name))).toEqual([]);
  });

  it("run the package's own command, with commands it has", () => {
    expect(dockerfile).toContain(`"${packageJson.bin.conveyor}"]`);
    const help = execFileSync(process.execPath, [packageJson.bin.conveyor, '--help'], { encoding: 'utf8' });
    const commands = [...compose.matchAll(/command: \["([a-z-]+)"\]/g)].map((m) => m[1] as string);
    expect(commands.sort()).toEqual(['migrate', 'start', 'worker']);
    for (const command of [...commands, /^CMD \["([a-z-]+)"\]/m.exec(dockerfile)?.[1]]) {
      expect(help).toMatch(new RegExp(`^ {2}${command} `, 'm'));
    }
  });

  it('build on a pinned Node.js the package supports, and run as a user that is not root', () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)\.(\d+)\.(\d+)-[a-z]+-slim$/m.exec(dockerfile);
    expect(image, 'the base image is pinned to a full version').not.toBeNull();
    const [major, minor] = (/>=(\d+)\.(\d+)/.exec(packageJson.engines.node) ?? []).slice(1).map(Number);
    const [imageMajor, imageMinor] = [Number(image?.[1]), Number(image?.[2])];
    expect(imageMajor === major ? imageMinor >= (minor ?? 0) : imageMajor > (major ?? 0)).toBe(true);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK /m);
  });
});
