import * as v from 'valibot';
import { AGENT_BOUNDS, AGENT_TOOL_TYPES } from '../../../core/domain/agent.js';
import { closedObject } from './fields.js';

const B = AGENT_BOUNDS;
const text = (max: number) =>
  v.pipe(v.string('must be a string.'), v.maxLength(max, `must be at most ${max} characters.`));
const name = v.pipe(v.string('must be a string.'), v.trim(), v.nonEmpty('is required.'), text(B.nameLength));
/** A text an agent may go without: left out keeps it, null clears it. */
const optionalText = (max: number) => v.optional(v.nullable(text(max)));
/** Ids are stored in lower case; a client may send either. */
const id = v.pipe(
  v.string('must be a string.'),
  v.uuid('must be a UUID.'),
  v.transform((value) => value.toLowerCase()),
);
const between = (bounds: { readonly min: number; readonly max: number }, whole: boolean) =>
  v.pipe(
    v.number('must be a number.'),
    v.check((n) => !whole || Number.isInteger(n), 'must be a whole number.'),
    v.minValue(bounds.min, `must be at least ${bounds.min}.`),
    v.maxValue(bounds.max, `must be at most ${bounds.max}.`),
  );

const agentEntries = {
  description: optionalText(B.descriptionLength),
  instructions: optionalText(B.instructionsLength),
  connectionId: v.optional(v.nullable(id)),
  model: v.optional(
    v.nullable(v.pipe(v.string('must be a string.'), v.trim(), v.nonEmpty('must not be empty.'), text(B.modelLength))),
  ),
  temperature: v.optional(v.nullable(between(B.temperature, false))),
  limits: v.optional(
    closedObject({
      maxIterations: v.optional(between(B.maxIterations, true)),
      maxTokens: v.optional(between(B.maxTokens, true)),
      timeoutSeconds: v.optional(between(B.timeoutSeconds, true)),
    }),
  ),
  memory: v.optional(
    closedObject({
      enabled: v.optional(v.boolean('must be a boolean.')),
      maxMessages: v.optional(between(B.maxMessages, true)),
    }),
  ),
};

/** `POST /agents`: the name, and whatever else the agent has to say; limits and memory in part. */
export const newAgentSchema = closedObject({ name, ...agentEntries });

/** `PATCH /agents/:agentId`: any of it. */
export const agentChangesSchema = closedObject({ name: v.optional(name), ...agentEntries });

const names = v.pipe(
  v.array(
    v.pipe(v.string('must be a string.'), v.nonEmpty('must not be empty.'), text(B.actionLength)),
    'must be an array.',
  ),
  v.maxLength(B.toolActions, `must have at most ${B.toolActions} entries.`),
);

/** `POST /agents/:agentId/tools`: Automatisch's body, and `askFirst`. */
export const agentToolSchema = closedObject({
  type: v.optional(v.picklist(AGENT_TOOL_TYPES, `must be one of: ${AGENT_TOOL_TYPES.join(', ')}.`)),
  appKey: v.optional(v.nullable(text(B.actionLength))),
  connectionId: v.optional(v.nullable(id)),
  actions: v.optional(names),
  flowId: v.optional(v.nullable(id)),
  askFirst: v.optional(names),
});
