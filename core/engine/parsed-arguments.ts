import type { AppCatalog } from '../../ports/app-catalog.js';
import type { Step } from '../domain/flow.js';

const PARSED_TYPES = new Set(['number', 'boolean', 'json']);

/**
 * Arguments whose rendered text is read as JSON (`valueType: parse`): numbers, booleans and JSON
 * values, so that `{{step.x.count}}` reaches a number argument as a number, and an object
 * reference reaches a JSON argument as the object.
 */
export const parsedArgumentKeys = (apps: AppCatalog, step: Step): ReadonlySet<string> => {
  if (step.appKey === null || step.key === null) return new Set();
  const app = apps.find(step.appKey);
  const described = (step.type === 'trigger' ? app?.triggers : app?.actions)?.find((s) => s.key === step.key);
  return new Set((described?.arguments ?? []).filter((a) => PARSED_TYPES.has(a.type)).map((a) => a.key));
};
