import * as v from 'valibot';
import { BUILT_IN_TEMPLATES } from '../../../core/application/templates/built-in/index.js';
import { DOCUMENT_MAX_STEPS, STEP_ID_MAX_LENGTH } from '../../../core/domain/export-document.js';
import { KEY_MAX_LENGTH, NAME_MAX_LENGTH, STRUCTURAL_TYPES } from '../../../core/domain/flow.js';
import { VERSION_MESSAGE_MAX_LENGTH } from '../../../core/domain/flow-version.js';
import { closedObject, jsonObject, requiredObject } from './fields.js';

const uuid = v.pipe(v.string('must be a string.'), v.uuid('must be a UUID.'));
const flag = v.optional(v.picklist(['true', 'false'], 'must be true or false.'));
const name = v.pipe(
  v.string('must be a string.'),
  v.trim(),
  v.nonEmpty('is required.'),
  v.maxLength(NAME_MAX_LENGTH, `must be at most ${NAME_MAX_LENGTH} characters.`),
);
const key = v.pipe(v.string('must be a string.'), v.nonEmpty('must not be empty.'), v.maxLength(KEY_MAX_LENGTH));
const parameters = jsonObject;
/** A step's trigger or action key; empty is none chosen yet, which Automatisch's client sends on every app choice. */
const stepKey = v.pipe(
  v.string('must be a string.'),
  v.maxLength(KEY_MAX_LENGTH, `must be at most ${KEY_MAX_LENGTH} characters.`),
  v.transform((text) => (text === '' ? null : text)),
);

/**
 * A branch's conditions as sent: the core checks their shape (so that a malformed one is answered
 * `invalidBranchConditionsError`, as Automatisch types it, not a plain validation error).
 */
const branchConditions = v.pipe(
  v.unknown(),
  v.description(
    'Groups of conditions, `[{"and": [{"key", "operator", "value"}]}]`: the branch is taken when every condition of any group holds; `[]` makes it the fallback branch. Only for a branch.',
  ),
);
/** A branch's conditions in a document: their shape here, their operators and groups checked by the core. */
const documentConditions = v.array(
  requiredObject({
    and: v.array(
      requiredObject({
        key: v.optional(v.string('must be a string.'), ''),
        operator: v.string('must be a string.'),
        value: v.optional(v.string('must be a string.'), ''),
      }),
      'must be an array.',
    ),
  }),
  'must be an array.',
);
const structuralType = v.picklist(STRUCTURAL_TYPES, `must be one of: ${STRUCTURAL_TYPES.join(', ')}.`);
const stepName = v.nullable(v.pipe(v.string('must be a string.'), v.trim(), v.maxLength(NAME_MAX_LENGTH)));

export const flowListQuery = v.object({
  name: v.optional(v.pipe(v.string(), v.maxLength(NAME_MAX_LENGTH))),
  status: v.optional(v.picklist(['draft', 'published'], 'must be draft or published.')),
  // `null` in the query string means "in no folder".
  folderId: v.optional(v.union([v.literal('null'), uuid], 'must be a UUID or null.')),
  onlyOwnedFlows: flag,
});

const builtInTemplateKeys = BUILT_IN_TEMPLATES.map((t) => t.key);
export const createFlowQuery = v.object({
  templateId: v.optional(uuid),
  builtInTemplate: v.optional(v.picklist(builtInTemplateKeys, `must be one of: ${builtInTemplateKeys.join(', ')}.`)),
});

export const flowChangesSchema = closedObject({ name: v.optional(name) });

export const flowStatusSchema = closedObject({ active: v.boolean('must be a boolean.') });

export const publishSchema = closedObject({
  message: v.optional(
    v.pipe(
      v.string('must be a string.'),
      v.maxLength(VERSION_MESSAGE_MAX_LENGTH, `must be at most ${VERSION_MESSAGE_MAX_LENGTH} characters.`),
    ),
  ),
});

/** Two sides to compare: a version's id, or `draft`. */
const compared = v.pipe(
  v.string('must be a version id or draft.'),
  v.check((side) => side === 'draft' || v.is(uuid, side), 'must be a version id or draft.'),
);
export const versionCompareQuery = v.object({ from: compared, to: v.optional(compared, 'draft') });

export const flowFolderSchema = closedObject({ folderId: v.nullable(uuid) });

/** An export document (API.md §10). Keys it does not know are ignored, so newer exports still import. */
export const exportDocumentSchema = requiredObject({
  id: v.optional(v.string('must be a string.'), ''),
  name,
  steps: v.pipe(
    v.array(
      requiredObject({
        id: v.pipe(v.string('must be a string.'), v.nonEmpty('must not be empty.'), v.maxLength(STEP_ID_MAX_LENGTH)),
        key: v.optional(v.nullable(key), null),
        name: v.optional(v.nullable(v.pipe(v.string('must be a string.'), v.maxLength(NAME_MAX_LENGTH))), null),
        appKey: v.optional(v.nullable(key), null),
        type: v.picklist(['trigger', 'action'], 'must be trigger or action.'),
        parameters: v.optional(parameters, {}),
        position: v.pipe(v.number('must be a number.'), v.integer('must be a whole number.'), v.minValue(1)),
        webhookPath: v.optional(v.nullable(v.string('must be a string.')), null),
        structuralType: v.optional(structuralType),
        parentStepId: v.optional(
          v.nullable(
            v.pipe(v.string('must be a string.'), v.nonEmpty('must not be empty.'), v.maxLength(STEP_ID_MAX_LENGTH)),
          ),
        ),
        branchConditions: v.optional(v.nullable(documentConditions)),
      }),
      'must be an array.',
    ),
    v.minLength(1, 'must have a trigger step.'),
    v.maxLength(DOCUMENT_MAX_STEPS, `must have at most ${DOCUMENT_MAX_STEPS} steps.`),
  ),
});

/** Where a step goes: see core/domain/step-tree.ts `placeOf`. */
const place = {
  previousStepId: v.optional(v.nullable(uuid)),
  parentStepId: v.optional(v.nullable(uuid)),
};

export const createStepSchema = closedObject({
  ...place,
  structuralType: v.optional(structuralType),
  name: v.optional(stepName),
  branchConditions: v.optional(branchConditions),
});

export const moveStepSchema = closedObject(place);

/** How long a wait for a trigger's next event may last, at most (the server's own limit may be shorter). */
export const TEST_EVENT_TIMEOUT_MAX_SECONDS = 600;

export const testEventSchema = closedObject({
  timeoutSeconds: v.optional(
    v.pipe(
      v.number('must be a number.'),
      v.integer('must be a whole number.'),
      v.minValue(1, 'must be at least 1.'),
      v.maxValue(TEST_EVENT_TIMEOUT_MAX_SECONDS, `must be at most ${TEST_EVENT_TIMEOUT_MAX_SECONDS}.`),
    ),
  ),
});

export const stepChangesSchema = closedObject({
  appKey: v.optional(v.nullable(key)),
  key: v.optional(v.nullable(stepKey)),
  name: v.optional(stepName),
  connectionId: v.optional(v.nullable(uuid)),
  parameters: v.optional(parameters),
  continueOnFailure: v.optional(v.boolean('must be a boolean.')),
  branchConditions: v.optional(branchConditions),
});

export const dynamicDataSchema = closedObject({ dynamicDataKey: key, parameters: v.optional(parameters) });
export const dynamicFieldsSchema = closedObject({ dynamicFieldsKey: key, parameters: v.optional(parameters) });

export const folderSchema = closedObject({ name });

export const templateSchema = closedObject({ name, flowId: uuid });
export const templateChangesSchema = closedObject({ name });
