import type { AppCatalog } from '../../ports/app-catalog.js';
import type { Step } from '../domain/flow.js';
import { definitionOf } from './step-definition.js';

const PARSED_TYPES = new Set(['number', 'boolean', 'json']);

/**
 * Arguments whose rendered text is read as JSON (`valueType: parse`): numbers, booleans and JSON
 * values, so that `{{step.x.count}}` reaches a number argument as a number, and an object
 * reference reaches a JSON argument as the object.
 */
export const parsedArgumentKeys = (apps: AppCatalog, step: Step): ReadonlySet<string> =>
  new Set(
    (definitionOf(apps, step)?.description.arguments ?? []).filter((a) => PARSED_TYPES.has(a.type)).map((a) => a.key),
  );
