import { type CliIo, help, parse } from './command-line.js';
import type { CliHost } from './host.js';

export const START_USAGE = `Usage: conveyor start

Runs the Conveyor server in this process, exactly as npm start does. It is configured by
environment variables (DATABASE_URL, PORT, HOST, ENCRYPTION_KEY, LICENSE_KEY, LICENSE_PUBLIC_KEY, ...).

Options:
  -h, --help  Show this help
`;

export const WORKER_USAGE = `Usage: conveyor worker

Runs flows without serving HTTP: takes runs and schedules from the job queue of the database in
DATABASE_URL. Start as many as you like beside the servers on one PostgreSQL database; each needs
the same ENCRYPTION_KEY. WORKER_CONCURRENCY sets how many runs one worker handles at once.

Options:
  -h, --help  Show this help
`;

/** A command that hands this process to a long-lived role; it lives on until stopped. */
const processCommand =
  (usage: string, run: (host: CliHost, io: CliIo) => Promise<void>) =>
  async (args: string[], io: CliIo, host: CliHost): Promise<number> => {
    const values = parse(args, help, usage);
    if (values.help) {
      io.stdout.write(usage);
      return 0;
    }
    await run(host, io);
    return 0;
  };

export const start = processCommand(START_USAGE, (host, io) => host.runServer(io.env));
export const worker = processCommand(WORKER_USAGE, (host, io) => host.runWorker(io.env));
