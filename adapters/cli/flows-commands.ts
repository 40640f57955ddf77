import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppliedFlow, ApplyReport, FlowFileInput } from '../../core/application/flows/apply-flow-files.js';
import { errorMessages } from '../../core/domain/error-messages.js';
import { FLOW_FILE_FORMAT, FLOW_FILE_SUFFIX, keyOfFileName } from '../../core/domain/flow-file.js';
import { type CliIo, CommandError, help, parse, required, UsageError } from './command-line.js';
import { actorFor, CONFIGURED, succeeded } from './database-command.js';
import type { CliHost } from './host.js';
import { flowFileIssues } from './input.js';

export const FLOWS_EXPORT_USAGE = `Usage: conveyor flows export --dir <path> --user <email> [--prune]

Writes one file per flow of the user into <path> (created when missing): <key>.flow.json, the
flow's draft as its editor shows it, whether it is active, its folder by name, and its steps
with their connections by app and name. No ids, credentials, webhook addresses, timestamps or
version numbers: the files of the same flows are byte for byte the same on every instance, ready
to keep in git. A flow gets its key (from its name) on its first export and keeps it.
A file whose text would not change is not rewritten; the others are written whole, then renamed.
Other files are left as they are; with --prune, *.flow.json files of no flow of the user are removed.
${CONFIGURED}

Options:
  --dir <path>    The folder of the files (required)
  --user <email>  Export this active user's own flows, with their permissions (required)
  --prune         Remove the *.flow.json files in <path> that no flow of the user has
  -h, --help      Show this help
`;

export const FLOWS_APPLY_USAGE = `Usage: conveyor flows apply --dir <path> --user <email> [--dry-run]

Makes the user's flows what the *.flow.json files in <path> say (other files are ignored), each
matched to the user's flow with its key, and prints what it did, flow by flow. A file no flow has
creates one; a flow whose draft, folder and state already match is left unchanged; otherwise its
draft becomes the file's and, when the file says active, it is published ("Applied from <file>")
unless it runs that already; inactive, it is stopped. Connections are the user's, found by app and
name; missing folders are created. Flows of the user that no file names are left alone.
Every file is checked first: if any cannot be applied, nothing is changed and each problem is
printed. Applying the same files again changes nothing.
${CONFIGURED}

Options:
  --dir <path>    The folder of the files (required)
  --user <email>  Apply to this active user's own flows, with their permissions (required)
  --dry-run       Only print what applying would do
  -h, --help      Show this help
`;

export const FLOWS_USAGE = `Usage: conveyor flows <export|apply> --dir <path> --user <email> [options]

Flows as files: keep a user's flows in git, and promote them from one instance to another.

Commands:
  export  Write one <key>.flow.json file per flow of the user
  apply   Create or update the user's flows from such files

conveyor flows <command> --help explains one. The file format is ${FLOW_FILE_FORMAT}; see docs/user-guide.md.
${CONFIGURED}
`;

const stringOption = { type: 'string' } as const;

/** The `*.flow.json` files of the folder, by name. */
const flowFilesIn = (dir: string): string[] => {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && keyOfFileName(entry.name) !== null)
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    throw new CommandError(`Cannot read ${dir}: ${(error as Error).message}`);
  }
};

/** Writes beside the file, then renames: a reader never sees half a file. */
const writeWhole = (path: string, dir: string, fileName: string, text: string) => {
  const temporary = join(dir, `.${fileName}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new CommandError(`Cannot write ${path}: ${(error as Error).message}`);
  }
};

export const flowsExport = async (args: string[], io: CliIo, host: CliHost): Promise<number> => {
  const options = { ...help, dir: stringOption, user: stringOption, prune: { type: 'boolean' } } as const;
  const values = parse(args, options, FLOWS_EXPORT_USAGE);
  if (values.help) {
    io.stdout.write(FLOWS_EXPORT_USAGE);
    return 0;
  }
  const dir = required(values.dir, '--dir', FLOWS_EXPORT_USAGE);
  const email = required(values.user, '--user', FLOWS_EXPORT_USAGE);
  const files = await host.withUseCases(io, async (useCases) =>
    succeeded(await useCases.exportFlowFiles(await actorFor(useCases, email)), 'Cannot export'),
  );
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new CommandError(`Cannot create ${dir}: ${(error as Error).message}`);
  }
  for (const file of files) {
    const path = join(dir, file.fileName);
    const same = existsSync(path) && readFileSync(path, 'utf8') === file.text;
    if (!same) writeWhole(path, dir, file.fileName, file.text);
    io.stdout.write(`${same ? 'unchanged' : 'wrote'} ${file.fileName}: "${file.name}"\n`);
  }
  const written = new Set(files.map((file) => file.fileName));
  for (const stale of flowFilesIn(dir).filter((name) => !written.has(name))) {
    if (values.prune) {
      rmSync(join(dir, stale));
      io.stdout.write(`removed ${stale}: no flow of ${email} has the key ${keyOfFileName(stale)}\n`);
    } else {
      io.stdout.write(
        `stale ${stale}: no flow of ${email} has the key ${keyOfFileName(stale)} (left; --prune removes it)\n`,
      );
    }
  }
  io.stdout.write(`Exported ${files.length} flow${files.length === 1 ? '' : 's'} of ${email} to ${dir}.\n`);
  return 0;
};

/** The files of the folder as the core reads them, or every problem of their JSON and shape. */
const readFlowFiles = (dir: string): FlowFileInput[] => {
  const inputs: FlowFileInput[] = [];
  const problems: string[] = [];
  for (const fileName of flowFilesIn(dir)) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(join(dir, fileName), 'utf8'));
    } catch (error) {
      problems.push(`${fileName}: ${error instanceof SyntaxError ? 'is not JSON: ' : ''}${(error as Error).message}`);
      continue;
    }
    const read = flowFileIssues(json);
    if ('file' in read) inputs.push({ fileName, file: read.file });
    else problems.push(...read.issues.map((issue) => `${fileName}: ${issue}`));
  }
  if (problems.length > 0) throw refusal(problems);
  return inputs;
};

const refusal = (problems: readonly string[]) =>
  new CommandError(
    `Nothing was applied: ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${p}`).join('\n')}`,
  );

const VERBS = {
  created: ['created', 'would create'],
  updated: ['updated', 'would update'],
  unchanged: ['unchanged', 'unchanged'],
} as const;

/** One line per flow: what happened to it and to its publication. */
const describe = (flow: AppliedFlow, dryRun: boolean): string => {
  const details: string[] = [];
  if (flow.outcome === 'updated' && flow.changes.length > 0) details.push(`${flow.changes.join(', ')} changed`);
  if (flow.published?.created) details.push(`published as version ${flow.published.version}`);
  else if (flow.published) details.push(`active again on version ${flow.published.version}`);
  if (flow.deactivated) details.push('deactivated');
  const verb = VERBS[flow.outcome][dryRun ? 1 : 0];
  return `${verb} ${flow.fileName}: "${flow.name}"${details.length > 0 ? `, ${details.join(', ')}` : ''}\n`;
};

const printReport = (io: CliIo, report: ApplyReport) => {
  for (const flow of report.flows) io.stdout.write(describe(flow, report.dryRun));
  for (const folder of report.createdFolders) {
    io.stdout.write(`${report.dryRun ? 'would create' : 'created'} folder "${folder}"\n`);
  }
  for (const other of report.leftAlone) {
    const why = other.key === null ? 'never exported' : `no file ${other.key}${FLOW_FILE_SUFFIX}`;
    io.stdout.write(`left alone: "${other.name}" (${why})\n`);
  }
  const changed = report.flows.filter((flow) => flow.outcome !== 'unchanged').length;
  io.stdout.write(
    report.dryRun
      ? `Dry run: ${changed} of ${report.flows.length} flows would change; nothing was changed.\n`
      : `Applied ${report.flows.length} file${report.flows.length === 1 ? '' : 's'}: ${changed} flow${changed === 1 ? '' : 's'} changed.\n`,
  );
};

export const flowsApply = async (args: string[], io: CliIo, host: CliHost): Promise<number> => {
  const options = { ...help, dir: stringOption, user: stringOption, 'dry-run': { type: 'boolean' } } as const;
  const values = parse(args, options, FLOWS_APPLY_USAGE);
  if (values.help) {
    io.stdout.write(FLOWS_APPLY_USAGE);
    return 0;
  }
  const dir = required(values.dir, '--dir', FLOWS_APPLY_USAGE);
  const email = required(values.user, '--user', FLOWS_APPLY_USAGE);
  const inputs = readFlowFiles(dir);
  const report = await host.withUseCases(io, async (useCases) => {
    const applied = await useCases.applyFlowFiles(await actorFor(useCases, email), inputs, {
      dryRun: values['dry-run'] === true,
    });
    if (!applied.ok && applied.error.code === 'input.invalid') {
      throw refusal(
        Object.entries(errorMessages(applied.error)).flatMap(([field, list]) => list.map((m) => `${field} ${m}`)),
      );
    }
    return succeeded(applied, 'Cannot apply');
  });
  printReport(io, report);
  return 0;
};

const SUBCOMMANDS: Record<string, (args: string[], io: CliIo, host: CliHost) => Promise<number>> = {
  export: flowsExport,
  apply: flowsApply,
};

/** `conveyor flows <export|apply>`. */
export const flows = async (args: string[], io: CliIo, host: CliHost): Promise<number> => {
  const [name, ...rest] = args;
  if (name === undefined) throw new UsageError('Give a command: export or apply.', FLOWS_USAGE);
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(FLOWS_USAGE);
    return 0;
  }
  const run = Object.hasOwn(SUBCOMMANDS, name) ? SUBCOMMANDS[name] : undefined;
  if (run === undefined) {
    throw new UsageError(
      name.startsWith('-') ? `Unknown option '${name}'.` : `Unknown command 'flows ${name}'.`,
      FLOWS_USAGE,
    );
  }
  return run(rest, io, host);
};
