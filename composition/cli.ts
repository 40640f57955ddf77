#!/usr/bin/env node
import { createPublicKey, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateLicenseKeyPair, signLicense } from '../adapters/auth/license.js';
import { errorMessage } from '../core/domain/errors.js';
import { parseIsoDate } from '../core/domain/license.js';
import { RELEASE } from '../core/domain/release.js';
import {
  CREATE_ADMIN_USAGE,
  createAdmin,
  EXPORT_FLOW_USAGE,
  exportFlow,
  IMPORT_FLOW_USAGE,
  importFlow,
  MIGRATE_USAGE,
  migrate,
} from './cli-instance.js';
import { LIST_FLOWS_USAGE, LIST_USERS_USAGE, listFlows, listUsers } from './cli-lists.js';
import { type CliIo, CommandError, help, parse, required, UsageError } from './cli-support.js';

const DAY_MS = 24 * 60 * 60_000;
const MAX_DAYS = 36_500;
const PRIVATE_FILE = 'license-private.pem';
const PUBLIC_FILE = 'license-public.pem';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const USAGE = `Usage: conveyor <command> [options]

Commands:
  start                  Run the Conveyor server (configured by environment variables, as npm start)
  worker                 Run flows only: extra worker processes beside servers on one Postgres database
  generate-license-keys  Create a key pair for signing enterprise licences
  issue-license          Sign an enterprise licence and print it
  migrate                Apply the database migrations and exit
  create-admin           Complete the installation with the first administrator
  export-flow            Print a flow's export document (JSON)
  import-flow            Import an export document as a new flow of a user
  list-flows             List the flows (id, status, owner, name), or one user's
  list-users             List the users (id, email, role, status, full name)

The database commands are configured by the same environment variables as start.

Options:
  -h, --help             Show this help; conveyor <command> --help shows a command's help
  -v, --version          Show the release number

The enterprise licence is described in docs/licensing.md.
`;

const START_USAGE = `Usage: conveyor start

Runs the Conveyor server in this process, exactly as npm start does. It is configured by
environment variables (DATABASE_URL, PORT, HOST, ENCRYPTION_KEY, LICENSE_KEY, LICENSE_PUBLIC_KEY, ...).

Options:
  -h, --help  Show this help
`;

const WORKER_USAGE = `Usage: conveyor worker

Runs flows without serving HTTP: takes runs and schedules from the job queue of the database in
DATABASE_URL. Start as many as you like beside the servers on one PostgreSQL database; each needs
the same ENCRYPTION_KEY. WORKER_CONCURRENCY sets how many runs one worker handles at once.

Options:
  -h, --help  Show this help
`;

const GENERATE_USAGE = `Usage: conveyor generate-license-keys --out <dir>

Creates an Ed25519 key pair for signing enterprise licences:
  <dir>/${PRIVATE_FILE}  signs licences (file mode 0600): keep it secret, off servers and out of repositories
  <dir>/${PUBLIC_FILE}   verifies them: each server gets it as LICENSE_PUBLIC_KEY
<dir> is created when missing. Existing key files are never overwritten.

Options:
  --out <dir>  Directory to write the two files into (required)
  -h, --help   Show this help
`;

const ISSUE_USAGE = `Usage: conveyor issue-license --private-key <file> --name <licensee>
                              (--expires <date> | --days <n>) [--id <uuid>]

Signs an enterprise licence and prints only the licence text on standard output (notes go to
standard error), so "conveyor issue-license ... > acme.license" captures exactly the licence.
The server reads it from LICENSE_KEY.

Options:
  --private-key <file>  The ${PRIVATE_FILE} written by generate-license-keys (required)
  --name <licensee>     Who the licence is for, shown by GET /api/v1/service/license (required)
  --expires <date>      Expiry: YYYY-MM-DD (00:00 UTC that day), or ISO-8601 with Z or an offset
  --days <n>            Expiry n whole days from now (1 to ${MAX_DAYS})
  --id <uuid>           Licence id (default: a random UUID)
  -h, --help            Show this help
`;

const generateLicenseKeys = (args: string[], io: CliIo): number => {
  const values = parse(args, { ...help, out: { type: 'string' } }, GENERATE_USAGE);
  if (values.help) {
    io.stdout.write(GENERATE_USAGE);
    return 0;
  }
  const dir = resolve(required(values.out, '--out', GENERATE_USAGE));
  const privatePath = join(dir, PRIVATE_FILE);
  const publicPath = join(dir, PUBLIC_FILE);
  for (const path of [privatePath, publicPath]) {
    if (existsSync(path)) {
      throw new CommandError(`${path} exists already; it is not overwritten. Move it away or choose another --out.`);
    }
  }
  // A new directory holds a private key, so only its owner may list it.
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { publicKeyPem, privateKeyPem } = generateLicenseKeyPair();
  // 'wx' fails if another process created the file since the check above: nothing is ever replaced.
  writeFileSync(privatePath, privateKeyPem, { mode: 0o600, flag: 'wx' });
  try {
    writeFileSync(publicPath, publicKeyPem, { mode: 0o644, flag: 'wx' });
  } catch (error) {
    // A private key without its public half is useless; do not leave it lying around.
    unlinkSync(privatePath);
    throw error;
  }
  const rawPublicKey = createPublicKey(publicKeyPem).export({ format: 'der', type: 'spki' }).subarray(-32);
  io.stdout.write(`Wrote ${privatePath} (mode 0600)
Wrote ${publicPath}

The private key signs licences. Keep it secret: not on the servers, not in a repository.

Next:
  1. Issue a licence:
       conveyor issue-license --private-key ${privatePath} --name "<licensee>" --days 365 > licence.txt
  2. On every server, set LICENSE_PUBLIC_KEY to the contents of ${publicPath},
     or to this one-line form of the same key:
       LICENSE_PUBLIC_KEY=${rawPublicKey.toString('base64')}
     and LICENSE_KEY to the licence text, then restart the server.
`);
  return 0;
};

const expiryOf = (values: { expires?: string; days?: string }, now: Date): Date => {
  if ((values.expires === undefined) === (values.days === undefined)) {
    throw new UsageError('Give exactly one of --expires and --days.', ISSUE_USAGE);
  }
  let expireAt: Date;
  if (values.days !== undefined) {
    const days = values.days.trim();
    if (!/^\d+$/.test(days) || Number(days) < 1 || Number(days) > MAX_DAYS) {
      throw new UsageError(`--days must be a whole number from 1 to ${MAX_DAYS}, not '${values.days}'.`, ISSUE_USAGE);
    }
    expireAt = new Date(now.getTime() + Number(days) * DAY_MS);
  } else {
    const text = (values.expires ?? '').trim();
    const parsed = parseIsoDate(text);
    if (!parsed) {
      throw new UsageError(
        `--expires must be a date (YYYY-MM-DD) or an ISO-8601 date-time with Z or an offset, not '${text}'.`,
        ISSUE_USAGE,
      );
    }
    expireAt = parsed;
  }
  if (expireAt.getTime() <= now.getTime()) {
    throw new UsageError(`The expiry ${expireAt.toISOString()} is not in the future.`, ISSUE_USAGE);
  }
  return expireAt;
};

const issueLicense = (args: string[], io: CliIo): number => {
  const values = parse(
    args,
    {
      ...help,
      'private-key': { type: 'string' },
      name: { type: 'string' },
      id: { type: 'string' },
      expires: { type: 'string' },
      days: { type: 'string' },
    },
    ISSUE_USAGE,
  );
  if (values.help) {
    io.stdout.write(ISSUE_USAGE);
    return 0;
  }
  const keyFile = required(values['private-key'], '--private-key', ISSUE_USAGE);
  const name = required(values.name, '--name', ISSUE_USAGE);
  const id = values.id === undefined ? randomUUID() : values.id.trim().toLowerCase();
  if (!UUID.test(id)) throw new UsageError(`--id must be a UUID, not '${values.id}'.`, ISSUE_USAGE);
  const expireAt = expiryOf(values, new Date());

  let privateKeyPem: string;
  try {
    privateKeyPem = readFileSync(keyFile, 'utf8');
  } catch (error) {
    throw new CommandError(`Cannot read the private key ${keyFile}: ${(error as Error).message}`);
  }
  let license: string;
  try {
    license = signLicense({ id, name, expireAt }, privateKeyPem);
  } catch (error) {
    throw new CommandError(`${keyFile}: ${(error as Error).message}`);
  }
  io.stdout.write(`${license}\n`);
  io.stderr.write(`Issued licence ${id} to "${name}", expiring ${expireAt.toISOString()}. Set it as LICENSE_KEY.\n`);
  return 0;
};

const start = async (args: string[], io: CliIo): Promise<number> => {
  const values = parse(args, help, START_USAGE);
  if (values.help) {
    io.stdout.write(START_USAGE);
    return 0;
  }
  // The process then lives on its open server.
  await (await import('./processes.js')).runServer();
  return 0;
};

const worker = async (args: string[], io: CliIo): Promise<number> => {
  const values = parse(args, help, WORKER_USAGE);
  if (values.help) {
    io.stdout.write(WORKER_USAGE);
    return 0;
  }
  await (await import('./processes.js')).runWorker();
  return 0;
};

const COMMANDS: Record<string, (args: string[], io: CliIo) => number | Promise<number>> = {
  start,
  worker,
  'generate-license-keys': generateLicenseKeys,
  'issue-license': issueLicense,
  migrate,
  'create-admin': createAdmin,
  'export-flow': exportFlow,
  'import-flow': importFlow,
  'list-flows': listFlows,
  'list-users': listUsers,
};
const HELP_OF: Record<string, string> = {
  start: START_USAGE,
  worker: WORKER_USAGE,
  'generate-license-keys': GENERATE_USAGE,
  'issue-license': ISSUE_USAGE,
  migrate: MIGRATE_USAGE,
  'create-admin': CREATE_ADMIN_USAGE,
  'export-flow': EXPORT_FLOW_USAGE,
  'import-flow': IMPORT_FLOW_USAGE,
  'list-flows': LIST_FLOWS_USAGE,
  'list-users': LIST_USERS_USAGE,
};

/** Runs one command line (without the node and script arguments) and answers the exit code. */
export const runCli = async (argv: string[], io: CliIo): Promise<number> => {
  const [command, ...args] = argv;
  try {
    if (command === undefined) throw new UsageError('No command given.', USAGE);
    if (command === '--help' || command === '-h') {
      io.stdout.write(USAGE);
      return 0;
    }
    if (command === 'help') {
      const topic = args[0];
      if (topic === undefined) {
        io.stdout.write(USAGE);
        return 0;
      }
      const usage = Object.hasOwn(HELP_OF, topic) ? HELP_OF[topic] : undefined;
      if (usage === undefined) throw new UsageError(`Unknown command '${topic}'.`, USAGE);
      io.stdout.write(usage);
      return 0;
    }
    if (command === '--version' || command === '-v') {
      io.stdout.write(`${RELEASE}\n`);
      return 0;
    }
    const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (run === undefined) {
      throw new UsageError(
        command.startsWith('-') ? `Unknown option '${command}'.` : `Unknown command '${command}'.`,
        USAGE,
      );
    }
    return await run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`conveyor: ${error.message}\n\n${error.usage}`);
      return 2;
    }
    if (error instanceof CommandError) {
      io.stderr.write(`conveyor: ${error.message}\n`);
      return 1;
    }
    io.stderr.write(`conveyor: ${errorMessage(error)}\n`);
    return 1;
  }
};

/** True when this file is the program node was started with, also through npm's bin symlink. */
const isEntryPoint = (): boolean => {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
};

if (isEntryPoint()) {
  // exitCode, not exit(): after `start` the server must keep the process alive.
  process.exitCode = await runCli(process.argv.slice(2), process);
}
