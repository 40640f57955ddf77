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

export const start = async (args: string[], io: CliIo, host: CliHost): Promise<number> => {
  const values = parse(args, help, START_USAGE);
  if (values.help) {
    io.stdout.write(START_USAGE);
    return 0;
  }
  // The process then lives on its open server.
  await host.runServer();
  return 0;
};

export const worker = async (args: string[], io: CliIo, host: CliHost): Promise<number> => {
  const values = parse(args, help, WORKER_USAGE);
  if (values.help) {
    io.stdout.write(WORKER_USAGE);
    return 0;
  }
  await host.runWorker();
  return 0;
};
