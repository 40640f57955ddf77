import type { Step } from '../types';

export interface Variable {
  readonly path: string;
  readonly preview: string;
}

const MAX_DEPTH = 5;
const MAX_ITEMS = 3;

const preview = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
};

/** Every leaf path of a sample output (dot paths, numeric segments for arrays), as the templating reads them. */
export const variablesOf = (value: unknown, prefix = '', depth = 0): Variable[] => {
  if (value !== null && typeof value === 'object' && depth < MAX_DEPTH) {
    const entries = Array.isArray(value)
      ? value.slice(0, MAX_ITEMS).map((item, index) => [String(index), item] as const)
      : Object.entries(value);
    const nested = entries.flatMap(([key, item]) => variablesOf(item, prefix ? `${prefix}.${key}` : key, depth + 1));
    if (nested.length) return nested;
  }
  return prefix ? [{ path: prefix, preview: preview(value) }] : [];
};

export const reference = (step: Pick<Step, 'id'>, path: string) => `{{step.${step.id}.${path}}}`;
