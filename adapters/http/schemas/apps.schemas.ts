import * as v from 'valibot';
import { APP_CAPABILITIES, APP_CATEGORIES } from '../../../core/domain/app.js';
import { closedObject } from './fields.js';

const uuid = v.pipe(v.string('must be a string.'), v.uuid('must be a UUID.'));
const formattedData = v.record(v.string(), v.unknown(), 'must be an object.');
const flag = v.optional(v.picklist(['true', 'false'], 'must be true or false.'));

/**
 * Automatisch's filters (`name` a case-insensitive part of the name), the picker's `category`, and
 * `capability` (the language models an agent may use, the toolboxes).
 */
export const appListQuery = v.object({
  name: v.optional(v.pipe(v.string(), v.maxLength(100))),
  onlyWithTriggers: flag,
  onlyWithActions: flag,
  category: v.optional(v.picklist(APP_CATEGORIES, `must be one of: ${APP_CATEGORIES.join(', ')}.`)),
  capability: v.optional(v.picklist(APP_CAPABILITIES, `must be one of: ${APP_CAPABILITIES.join(', ')}.`)),
});

/** Either credentials (`formattedData`) or an administrator's OAuth client, not both. */
export const connectionSchema = v.pipe(
  closedObject({ formattedData: v.optional(formattedData), appAuthClientId: v.optional(uuid) }),
  v.check(
    (input) => (input.formattedData === undefined) !== (input.appAuthClientId === undefined),
    'give either formattedData or appAuthClientId.',
  ),
  v.transform((input) =>
    input.appAuthClientId !== undefined
      ? { appAuthClientId: input.appAuthClientId }
      : { formattedData: input.formattedData ?? {} },
  ),
);

export const appConfigSchema = closedObject({
  disabled: v.optional(v.boolean('must be a boolean.')),
  useOnlyPredefinedAuthClients: v.optional(v.boolean('must be a boolean.')),
});

export const oauthClientSchema = closedObject({
  name: v.pipe(v.string('must be a string.'), v.trim(), v.nonEmpty('is required.'), v.maxLength(255)),
  active: v.optional(v.boolean('must be a boolean.')),
  formattedAuthDefaults: formattedData,
});

export const oauthClientChangesSchema = closedObject({
  name: v.optional(v.pipe(v.string('must be a string.'), v.trim(), v.nonEmpty('is required.'), v.maxLength(255))),
  active: v.optional(v.boolean('must be a boolean.')),
  formattedAuthDefaults: v.optional(formattedData),
});
