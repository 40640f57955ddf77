import * as v from 'valibot';
import { DOCUMENT_MAX_STEPS, type ExportDocument, STEP_ID_MAX_LENGTH } from '../../core/domain/export-document.js';
import { KEY_MAX_LENGTH, NAME_MAX_LENGTH, STRUCTURAL_TYPES } from '../../core/domain/flow.js';
import { FILE_KEY_MAX_LENGTH, FLOW_FILE_FORMAT, type FlowFile } from '../../core/domain/flow-file.js';
import {
  EMAIL_MAX_LENGTH,
  FULL_NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from '../../core/domain/user.js';
import { CommandError } from './command-line.js';

/*
 * What the CLI reads besides its options: the first administrator, an export document and flow files. The
 * bounds are the domain's, the same the HTTP API holds a request body to, and so are the words of
 * each refusal, so that a file the API refuses is refused here for the same reason.
 */

const maxLength = (bound: number) => v.maxLength<string, number, string>(bound, `must be at most ${bound} characters.`);
const text = v.string('must be a string.');

/** The first administrator, from --email, --full-name and the password. */
const administratorSchema = v.object({
  email: v.pipe(
    text,
    v.trim(),
    v.nonEmpty('is required.'),
    maxLength(EMAIL_MAX_LENGTH),
    v.email('must be a valid e-mail address.'),
  ),
  password: v.pipe(
    text,
    v.minLength(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters.`),
    maxLength(PASSWORD_MAX_LENGTH),
  ),
  fullName: v.pipe(text, v.trim(), v.nonEmpty('is required.'), maxLength(FULL_NAME_MAX_LENGTH)),
});

// valibot takes an array for an object; a JSON document must really be one.
const notAnArray = v.pipe(
  v.unknown(),
  v.check((input) => !Array.isArray(input), 'must be an object.'),
);

const documentObject = <E extends v.ObjectEntries>(entries: E) =>
  v.pipe(
    notAnArray,
    v.object(entries, (issue) => (issue.received === 'undefined' ? 'is required.' : 'must be an object.')),
  );

const key = v.pipe(text, v.nonEmpty('must not be empty.'), v.maxLength(KEY_MAX_LENGTH));
const stepId = v.pipe(text, v.nonEmpty('must not be empty.'), v.maxLength(STEP_ID_MAX_LENGTH));
const structuralType = v.picklist(STRUCTURAL_TYPES, `must be one of: ${STRUCTURAL_TYPES.join(', ')}.`);

/** A condition's fields: their shape here, the operator (and groups) checked by the core, as HTTP does. */
const condition = { key: v.optional(text, ''), operator: text, value: v.optional(text, '') };

/** An export document (API.md §10). Keys it does not know are ignored, so newer exports still import. */
const exportDocumentSchema = documentObject({
  id: v.optional(text, ''),
  name: v.pipe(text, v.trim(), v.nonEmpty('is required.'), maxLength(NAME_MAX_LENGTH)),
  steps: v.pipe(
    v.array(
      documentObject({
        id: stepId,
        key: v.optional(v.nullable(key), null),
        name: v.optional(v.nullable(v.pipe(text, v.maxLength(NAME_MAX_LENGTH))), null),
        appKey: v.optional(v.nullable(key), null),
        type: v.picklist(['trigger', 'action'], 'must be trigger or action.'),
        parameters: v.optional(v.pipe(notAnArray, v.record(v.string(), v.unknown(), 'must be an object.')), {}),
        position: v.pipe(v.number('must be a number.'), v.integer('must be a whole number.'), v.minValue(1)),
        webhookPath: v.optional(v.nullable(text), null),
        structuralType: v.optional(structuralType),
        parentStepId: v.optional(v.nullable(stepId)),
        branchConditions: v.optional(
          v.nullable(
            v.array(
              documentObject({ and: v.array(documentObject(condition), 'must be an array.') }),
              'must be an array.',
            ),
          ),
        ),
      }),
      'must be an array.',
    ),
    v.minLength(1, 'must have a trigger step.'),
    v.maxLength(DOCUMENT_MAX_STEPS, `must have at most ${DOCUMENT_MAX_STEPS} steps.`),
  ),
});

// A flow file is written by a program and kept under review: a key it does not know is a typo.
const fileObject = <E extends v.ObjectEntries>(entries: E) =>
  v.pipe(
    notAnArray,
    v.strictObject(entries, (issue) =>
      issue.received === 'undefined'
        ? 'is required.'
        : issue.expected === 'never'
          ? 'is not a field of a flow file.'
          : 'must be an object.',
    ),
  );

// Names are compared as they are: one with spaces around it would never match its folder or flow again.
const fileName = v.pipe(
  text,
  v.nonEmpty('must not be empty.'),
  maxLength(NAME_MAX_LENGTH),
  v.check((name) => name.trim() === name, 'must not start or end with spaces.'),
);

/** A flow file (core/domain/flow-file.ts): every field present, no other. */
const flowFileSchema = fileObject({
  format: v.literal(FLOW_FILE_FORMAT, `must be "${FLOW_FILE_FORMAT}" (this release reads no other).`),
  key: v.pipe(text, v.nonEmpty('must not be empty.'), maxLength(FILE_KEY_MAX_LENGTH)),
  name: fileName,
  active: v.boolean('must be true or false.'),
  folder: v.nullable(fileName),
  steps: v.pipe(
    v.array(
      fileObject({
        id: stepId,
        type: v.picklist(['trigger', 'action'], 'must be trigger or action.'),
        appKey: v.nullable(key),
        key: v.nullable(key),
        name: v.nullable(v.pipe(text, maxLength(NAME_MAX_LENGTH))),
        parameters: v.pipe(notAnArray, v.record(v.string(), v.unknown(), 'must be an object.')),
        continueOnFailure: v.boolean('must be true or false.'),
        connection: v.nullable(fileObject({ appKey: key, name: v.nullable(text) })),
        // Present only where the step is not a top-level single step (flow-file.ts).
        structuralType: v.optional(structuralType),
        parentStepId: v.optional(stepId),
        branchConditions: v.optional(
          v.array(fileObject({ and: v.array(fileObject(condition), 'must be an array.') }), 'must be an array.'),
        ),
      }),
      'must be an array.',
    ),
    v.minLength(1, 'must have a trigger step.'),
    v.maxLength(DOCUMENT_MAX_STEPS, `must have at most ${DOCUMENT_MAX_STEPS} steps.`),
  ),
});

/** The input as the schema reads it, or what is wrong with it on one line (never the values). */
const validated = <S extends v.GenericSchema>(schema: S, input: unknown, what: string): v.InferOutput<S> => {
  const parsed = v.safeParse(schema, input, { abortPipeEarly: true });
  if (parsed.success) return parsed.output;
  const issues = parsed.issues.map((issue) => `${v.getDotPath(issue) ?? 'document'} ${issue.message}`);
  throw new CommandError(`${what}: ${issues.join('; ')}`);
};

export interface AdministratorInput {
  readonly email: string;
  readonly password: string;
  readonly fullName: string;
}

export const administratorInput = (input: AdministratorInput): AdministratorInput =>
  validated(administratorSchema, input, 'Cannot create the administrator');

export const exportDocumentOf = (document: unknown, what: string): ExportDocument =>
  validated(exportDocumentSchema, document, what);

/** A flow file's content, or what is wrong with its shape (one line per problem). */
export const flowFileIssues = (input: unknown): { readonly file: FlowFile } | { readonly issues: string[] } => {
  const parsed = v.safeParse(flowFileSchema, input, { abortPipeEarly: true });
  if (parsed.success) return { file: parsed.output as FlowFile };
  return { issues: parsed.issues.map((issue) => `${v.getDotPath(issue) ?? 'file'} ${issue.message}`) };
};
