import { errorMessage } from '../../core/domain/errors.js';
import { RELEASE } from '../../core/domain/release.js';
import { type CliIo, CommandError, UsageError } from './command-line.js';
import { EXPORT_FLOW_USAGE, exportFlow, IMPORT_FLOW_USAGE, importFlow } from './flow-file-commands.js';
import { FLOWS_APPLY_USAGE, FLOWS_EXPORT_USAGE, FLOWS_USAGE, flows } from './flows-commands.js';
import type { CliHost, Command } from './host.js';
import { GENERATE_USAGE, generateLicenseKeys, ISSUE_USAGE, issueLicense } from './license-commands.js';
import { LIST_FLOWS_USAGE, LIST_USERS_USAGE, listFlows, listUsers } from './list-commands.js';
import { START_USAGE, start, WORKER_USAGE, worker } from './process-commands.js';
import {
  CREATE_ADMIN_USAGE,
  createAdmin,
  FORGET_CREDENTIALS_USAGE,
  forgetCredentials,
  MIGRATE_USAGE,
  migrate,
} from './setup-commands.js';

const USAGE = `Usage: conveyor <command> [options]

Commands:
  start                  Run the Conveyor server (configured by environment variables, as npm start)
  worker                 Run flows only: extra worker processes beside servers on one Postgres database
  generate-license-keys  Create a key pair for signing enterprise licences
  issue-license          Sign an enterprise licence and print it
  migrate                Apply the database migrations and exit
  create-admin           Complete the installation with the first administrator
  forget-credentials     Delete the connections no encryption key given opens (a key lost for good)
  export-flow            Print a flow's export document (JSON)
  import-flow            Import an export document as a new flow of a user
  flows export           Write a user's flows as files, one <key>.flow.json per flow (for git)
  flows apply            Create or update a user's flows from such files
  list-flows             List the flows (id, status, owner, name), or one user's
  list-users             List the users (id, email, role, status, full name)

The database commands are configured by the same environment variables as start.

Options:
  --data-dir <folder>    Keep the SQLite database, the encryption key and the mail outbox in <folder>
                         (DATA_DIR), instead of ~/.conveyor (./data in a checkout); with any command
  -h, --help             Show this help; conveyor <command> --help shows a command's help
  -v, --version          Show the release number

The enterprise licence is described in docs/licensing.md.
`;

/** Each command with its usage (and its subcommands'), in the order the overview lists them. */
const COMMANDS: Record<
  string,
  { readonly run: Command; readonly usage: string; readonly subcommands?: Readonly<Record<string, string>> }
> = {
  start: { run: start, usage: START_USAGE },
  worker: { run: worker, usage: WORKER_USAGE },
  'generate-license-keys': { run: generateLicenseKeys, usage: GENERATE_USAGE },
  'issue-license': { run: issueLicense, usage: ISSUE_USAGE },
  migrate: { run: migrate, usage: MIGRATE_USAGE },
  'create-admin': { run: createAdmin, usage: CREATE_ADMIN_USAGE },
  'forget-credentials': { run: forgetCredentials, usage: FORGET_CREDENTIALS_USAGE },
  'export-flow': { run: exportFlow, usage: EXPORT_FLOW_USAGE },
  'import-flow': { run: importFlow, usage: IMPORT_FLOW_USAGE },
  flows: { run: flows, usage: FLOWS_USAGE, subcommands: { export: FLOWS_EXPORT_USAGE, apply: FLOWS_APPLY_USAGE } },
  'list-flows': { run: listFlows, usage: LIST_FLOWS_USAGE },
  'list-users': { run: listUsers, usage: LIST_USERS_USAGE },
};

// Own properties only: an inherited name such as `constructor` is no command.
const commandNamed = (name: string) => (Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined);

/** `help` alone is the overview, `help <command> [<subcommand>]` that command's usage. */
const helpOn = (topic: string | undefined, subtopic: string | undefined): string => {
  if (topic === undefined) return USAGE;
  const command = commandNamed(topic);
  if (command === undefined) throw new UsageError(`Unknown command '${topic}'.`, USAGE);
  if (subtopic === undefined) return command.usage;
  const usage =
    command.subcommands && Object.hasOwn(command.subcommands, subtopic) ? command.subcommands[subtopic] : undefined;
  if (usage === undefined) throw new UsageError(`Unknown command '${topic} ${subtopic}'.`, command.usage);
  return usage;
};

/** Runs one command line (without the node and script arguments); answers the exit code. */
const dispatch = async (argv: string[], io: CliIo, host: CliHost): Promise<number> => {
  const [name, ...args] = argv;
  if (name === undefined) throw new UsageError('No command given.', USAGE);
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(name === 'help' ? helpOn(args[0], args[1]) : USAGE);
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${RELEASE}\n`);
    return 0;
  }
  const command = commandNamed(name);
  if (command === undefined) {
    throw new UsageError(name.startsWith('-') ? `Unknown option '${name}'.` : `Unknown command '${name}'.`, USAGE);
  }
  return await command.run(args, io, host);
};

/**
 * `--data-dir <folder>` (or `--data-dir=<folder>`), before or after the command, taken out of the
 * command line into the environment the command is configured by, as DATA_DIR.
 */
const withDataDirectory = (argv: string[], io: CliIo): [string[], CliIo] => {
  const at = argv.findIndex((arg) => arg === '--data-dir' || arg.startsWith('--data-dir='));
  const option = argv[at];
  if (option === undefined) return [argv, io];
  const inline = option.startsWith('--data-dir=');
  const folder = inline ? option.slice('--data-dir='.length) : argv[at + 1];
  if (!folder || folder.startsWith('-')) throw new UsageError('--data-dir needs a folder.', USAGE);
  const rest = [...argv.slice(0, at), ...argv.slice(at + (inline ? 1 : 2))];
  return [rest, { ...io, env: { ...(io.env ?? process.env), DATA_DIR: folder } }];
};

/**
 * The `conveyor` command line on the host the composition gives it: a usage error exits 2 with the
 * usage on stderr, a failure exits 1 with its one line.
 */
export const createCli =
  (host: CliHost) =>
  async (argv: string[], io: CliIo): Promise<number> => {
    try {
      return await dispatch(...withDataDirectory(argv, io), host);
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
