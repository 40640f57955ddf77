import * as v from 'valibot';
import type { FieldErrors } from '../../../core/domain/errors.js';
import { type ArgumentMap, type InferParameters, parametersSchema } from './arguments.js';

export type Validated<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly fields: FieldErrors };

/** Runs a schema and keys its messages by the top-level field they concern (`general` otherwise). */
export const validate = <T>(schema: v.GenericSchema<unknown, T>, input: unknown): Validated<T> => {
  const result = v.safeParse(schema, input);
  if (result.success) return { ok: true, value: result.output };
  const fields: Record<string, string[]> = {};
  for (const issue of result.issues) {
    const key = issue.path?.[0]?.key;
    const field = typeof key === 'string' ? key : 'general';
    fields[field] = [...(fields[field] ?? []), issue.message];
  }
  return { ok: false, fields };
};

/** Parameters that do not fit a step's arguments: a mistake in the flow, not a remote failure. */
export class InvalidParametersError extends Error {
  override readonly name = 'InvalidParametersError';
  constructor(readonly fields: FieldErrors) {
    super(
      `Invalid parameters: ${Object.entries(fields)
        .map(([field, messages]) => `${field} ${messages.join(' ')}`)
        .join('; ')}`,
    );
  }
}

/**
 * Validates raw values against arguments a step did not declare up front: the fields its
 * `dynamicFields` handler added, which the catalog passes through unchecked.
 */
export const parseParameters = <M extends ArgumentMap>(args: M, raw: unknown): InferParameters<M> => {
  const parsed = validate(parametersSchema(args), raw);
  if (!parsed.ok) throw new InvalidParametersError(parsed.fields);
  return parsed.value;
};
