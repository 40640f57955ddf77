/**
 * Step parameters refer to earlier steps' outputs with `{{step.<stepId>.<path>}}`. The path is
 * dotted; numeric segments (`items.0.name`, or `items[0].name`) index arrays.
 */

/**
 * The outputs of the steps that ran so far, by step id; under `execution`, what every step may read
 * of its run (`{{execution.id}}`, `{{execution.resumeUrl}}`).
 */
export type StepOutputs = ReadonlyMap<string, unknown>;

/** The key of the run's own values among the outputs: no step id is spelled so. */
export const EXECUTION_KEY = 'execution';

const PLACEHOLDER = /\{\{\s*(?:step\.([0-9A-Za-z-]+)|(execution))((?:\.[^.{}[\]\s]+|\[\d+\])*)\s*\}\}/g;

/** Whether any text in the value reads the run's own values (`{{execution.…}}`). */
export const readsExecution = (value: unknown): boolean => {
  if (typeof value === 'string') return /\{\{\s*execution[.\s}]/.test(value);
  if (Array.isArray(value)) return value.some(readsExecution);
  if (value !== null && typeof value === 'object') return Object.values(value).some(readsExecution);
  return false;
};

const segmentsOf = (path: string): string[] =>
  path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((segment) => segment !== '');

/** Own properties only: a path can never walk into a prototype (`__proto__`, `constructor`). */
const child = (value: unknown, segment: string): unknown => {
  if (Array.isArray(value)) return /^\d+$/.test(segment) ? value[Number(segment)] : undefined;
  if (value !== null && typeof value === 'object' && Object.hasOwn(value, segment)) {
    return (value as Record<string, unknown>)[segment];
  }
  return undefined;
};

export const readPath = (value: unknown, path: string): unknown =>
  segmentsOf(path).reduce<unknown>((current, segment) => child(current, segment), value);

/** How a value reads inside text: nothing for a missing one, JSON for objects and arrays. */
const asText = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

/** Replaces every placeholder in `text` with the value it names, as text. */
export const renderText = (text: string, outputs: StepOutputs): string =>
  text.replace(PLACEHOLDER, (_match, stepId: string | undefined, _execution, path: string) =>
    asText(readPath(outputs.get(stepId ?? EXECUTION_KEY), path)),
  );

/** What JSON text can start with, after white space: a throw per plain word was costly on hot steps. */
const JSON_START = /^\s*[[{"\-0-9tfn]/;

/** A string that, once rendered, is read as JSON when it is JSON (`valueType: parse`). */
const parseIfJson = (text: string): unknown => {
  if (!JSON_START.test(text)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/**
 * Renders every string inside `parameters` (through arrays and objects). The top-level keys in
 * `parseKeys` are arguments declared `valueType: parse`: their rendered text becomes the JSON
 * value it spells, so a step can hand an array or an object to the next one.
 */
export const renderParameters = (
  parameters: Readonly<Record<string, unknown>>,
  outputs: StepOutputs,
  parseKeys: ReadonlySet<string> = new Set(),
): Record<string, unknown> => {
  const render = (value: unknown, parse: boolean): unknown => {
    if (typeof value === 'string') {
      const text = renderText(value, outputs);
      return parse ? parseIfJson(text) : text;
    }
    if (Array.isArray(value)) return value.map((item) => render(item, parse));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, render(item, parse)]));
    }
    return value;
  };
  return Object.fromEntries(Object.entries(parameters).map(([key, value]) => [key, render(value, parseKeys.has(key))]));
};

/** The ids of the steps that `parameters` refer to, each once, in order of appearance. */
export const referencedStepIds = (parameters: unknown): string[] => {
  const ids = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const match of value.matchAll(PLACEHOLDER)) if (match[1] !== undefined) ids.add(match[1]);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(parameters);
  return [...ids];
};
