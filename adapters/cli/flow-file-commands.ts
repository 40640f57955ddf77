import { readFileSync, writeFileSync } from 'node:fs';
import { type CliIo, CommandError, help, parseCommand, required, single } from './command-line.js';
import { actorFor, CONFIGURED, succeeded } from './database-command.js';
import type { CliHost } from './host.js';
import { exportDocumentOf } from './input.js';

export const EXPORT_FLOW_USAGE = `Usage: conveyor export-flow <flowId> --user <email> [--output <file>]

Writes the export document of a flow (JSON, as POST /api/v1/flows/{flowId}/export answers) to
standard output, or to <file>. It holds the steps and their parameters, no connections.
Its ids (the document's and the steps') are fresh ones, not the flow's: a webhook trigger's
address holds its flow's id, so a document passed on would otherwise hand out the address that
runs the flow. Automatisch exports the same way; an import makes a new flow in any case.
${CONFIGURED}

Options:
  --user <email>   Export as this active user, with their permissions (required)
  --output <file>  Write the document to this file instead (it is replaced when it exists)
  -h, --help       Show this help
`;

export const IMPORT_FLOW_USAGE = `Usage: conveyor import-flow <file> --user <email>

Imports an export document (as written by conveyor export-flow or the web app) as a new,
unpublished flow owned by the user, and prints the new flow's id. Use - for standard input.
${CONFIGURED}

Options:
  --user <email>  The active user who will own the flow (required)
  -h, --help      Show this help
`;

export const exportFlow = async (args: string[], io: CliIo, host: CliHost): Promise<number> => {
  const { values, positionals } = parseCommand(
    args,
    { ...help, output: { type: 'string' }, user: { type: 'string' } },
    EXPORT_FLOW_USAGE,
    true,
  );
  if (values.help) {
    io.stdout.write(EXPORT_FLOW_USAGE);
    return 0;
  }
  const flowId = single(positionals, 'flow id', EXPORT_FLOW_USAGE);
  const email = required(values.user, '--user', EXPORT_FLOW_USAGE);
  const output = values.output === undefined ? undefined : required(values.output, '--output', EXPORT_FLOW_USAGE);
  const document = await host.withUseCases(io, async (useCases) =>
    succeeded(await useCases.exportFlow(await actorFor(useCases, email), flowId), `Flow ${flowId}`),
  );
  const json = `${JSON.stringify(document, null, 2)}\n`;
  if (output === undefined) {
    io.stdout.write(json);
    return 0;
  }
  try {
    writeFileSync(output, json);
  } catch (error) {
    throw new CommandError(`Cannot write ${output}: ${(error as Error).message}`);
  }
  io.stderr.write(`Wrote the export of flow ${flowId} to ${output}\n`);
  return 0;
};

/** The JSON in the file, or for - on standard input. */
const readDocument = async (file: string, io: CliIo): Promise<unknown> => {
  let text: string;
  try {
    if (file === '-') {
      text = '';
      for await (const chunk of io.stdin ?? process.stdin) text += chunk.toString();
    } else {
      text = readFileSync(file, 'utf8');
    }
  } catch (error) {
    throw new CommandError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CommandError(`${file} is not JSON: ${(error as Error).message}`);
  }
};

export const importFlow = async (args: string[], io: CliIo, host: CliHost): Promise<number> => {
  const { values, positionals } = parseCommand(args, { ...help, user: { type: 'string' } }, IMPORT_FLOW_USAGE, true);
  if (values.help) {
    io.stdout.write(IMPORT_FLOW_USAGE);
    return 0;
  }
  const file = single(positionals, 'file', IMPORT_FLOW_USAGE);
  const email = required(values.user, '--user', IMPORT_FLOW_USAGE);
  const document = exportDocumentOf(await readDocument(file, io), `${file} is not an export document`);
  const flow = await host.withUseCases(io, async (useCases) =>
    succeeded(await useCases.importFlow(await actorFor(useCases, email), document), 'Cannot import'),
  );
  io.stdout.write(`${flow.id}\n`);
  io.stderr.write(`Imported "${flow.name}" as flow ${flow.id}, owned by ${email}.\n`);
  return 0;
};
