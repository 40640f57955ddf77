import { type ChildProcess, spawn } from 'node:child_process';

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  readonly output: () => string;
  readonly exited: Promise<number | null>;
}

/** Starts composition/main.ts as its own process, as `npm start` does after the build. */
export const startServerProcess = (env: Record<string, string>): ServerProcess => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'composition/main.ts'], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
};

/** The port the process reports in its "listening" log line. */
export const listeningPort = async (started: ServerProcess, timeoutMs = 20_000): Promise<number> => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = /"port":(\d+)/.exec(started.output());
    if (match?.[1]) return Number(match[1]);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the server did not start:\n${started.output()}`);
};
