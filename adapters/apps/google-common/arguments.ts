import * as v from 'valibot';
import { type Argument, text } from '../sdk/index.js';

export interface TextListOptions {
  readonly label: string;
  readonly description?: string;
  readonly required?: boolean;
  /** The key of each row in Automatisch's `dynamic` list (`[{ to: '...' }]`): steps saved that way keep working. */
  readonly rowKey: string;
}

const entriesOf = (value: unknown, rowKey: string): unknown[] | null => {
  if (typeof value === 'string') return value.split(/[,\n]/);
  if (!Array.isArray(value)) return null;
  return value.map((entry) =>
    typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>)[rowKey] : entry,
  );
};

/**
 * A list of texts (recipients, column headers): typed as text separated by commas or new lines,
 * or given as a list, of texts or of Automatisch's rows. Blank entries are dropped; the value is
 * the list, empty when nothing was given.
 */
export const textList = (options: TextListOptions): Argument<string[]> => {
  const described = text({
    label: options.label,
    required: options.required ?? false,
    acceptsVariables: true,
    ...(options.description !== undefined && { description: options.description }),
  });
  const schema = v.pipe(
    v.unknown(),
    v.rawTransform<unknown, string[]>(({ dataset, addIssue, NEVER }) => {
      const entries =
        dataset.value === undefined || dataset.value === null ? [] : entriesOf(dataset.value, options.rowKey);
      const texts = entries?.map((entry) => (typeof entry === 'number' ? String(entry) : entry));
      if (!texts || texts.some((entry) => entry !== undefined && entry !== null && typeof entry !== 'string')) {
        addIssue({ message: 'must be a text or a list of texts.' });
        return NEVER;
      }
      const list = (texts as (string | null | undefined)[]).map((entry) => entry?.trim() ?? '').filter(Boolean);
      if (options.required && list.length === 0) {
        addIssue({ message: 'is required.' });
        return NEVER;
      }
      return list;
    }),
  );
  return { ...described, schema };
};
