import * as v from 'valibot';
import type { ArgumentDescription, ArgumentOption, ArgumentType } from '../../../core/domain/app.js';

/**
 * One argument of a step or of an app's authentication: the serialisable description the API
 * shows, and the valibot schema that turns what was entered into the typed value `run` receives.
 * `D` is the `dynamicData` key a dynamic dropdown lists its options from (none for the others), so
 * that `defineApp` can refuse a key the app does not define.
 */
export interface Argument<T, D extends string = never> {
  readonly type: ArgumentType;
  readonly required: boolean;
  readonly schema: v.GenericSchema<unknown, T>;
  readonly dynamicData?: D;
  describe(key: string): ArgumentDescription;
}

/** A map of arguments whose dynamic dropdowns name only `dynamicData` keys among `D`. */
export type ArgumentMapOf<D extends string> = Readonly<Record<string, Argument<unknown, D>>>;

export type ArgumentMap = ArgumentMapOf<string>;

/** The typed parameters a map of arguments validates into. */
export type InferParameters<M extends ArgumentMap> = {
  -readonly [K in keyof M]: M[K] extends Argument<infer T, string> ? T : never;
};

export interface ArgumentOptions<T> {
  readonly label: string;
  readonly required?: boolean;
  readonly description?: string;
  readonly placeholder?: string;
  /** Used when nothing was entered; a required argument with a default is never missing. */
  readonly default?: T;
  readonly secret?: boolean;
  readonly acceptsVariables?: boolean;
  /** A further rule on a given value: the message when it is broken, null when it holds. */
  readonly check?: (value: T) => string | null;
}

/** Required or defaulted arguments always have a value; the others may be undefined. */
type Value<T, O> = O extends { readonly required: true } ? T : O extends { readonly default: T } ? T : T | undefined;

type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const valid = <T>(value: T): Parsed<T> => ({ ok: true, value });
const invalid = (message: string): Parsed<never> => ({ ok: false, message });

/** Forms leave untouched fields empty; templates may render to null. Both mean "not given". */
const isAbsent = (value: unknown) => value === undefined || value === null || value === '';

const build = <T>(
  type: ArgumentType,
  options: ArgumentOptions<T>,
  parse: (value: unknown) => Parsed<T>,
  extra: Partial<ArgumentDescription> = {},
): Argument<any> => {
  const required = options.required === true;
  const schema = v.pipe(
    v.unknown(),
    v.rawTransform<unknown, T | undefined>(({ dataset, addIssue, NEVER }) => {
      const parsed: Parsed<T | undefined> = isAbsent(dataset.value)
        ? options.default !== undefined
          ? valid(options.default)
          : required
            ? invalid('is required.')
            : valid(undefined)
        : parse(dataset.value);
      if (!parsed.ok) {
        addIssue({ message: parsed.message });
        return NEVER;
      }
      const broken = parsed.value === undefined ? null : options.check?.(parsed.value);
      if (broken) {
        addIssue({ message: broken });
        return NEVER;
      }
      return parsed.value;
    }),
  );
  return {
    type,
    required,
    schema,
    describe: (key) => ({
      key,
      label: options.label,
      type,
      required,
      ...(options.description !== undefined && { description: options.description }),
      ...(options.placeholder !== undefined && { placeholder: options.placeholder }),
      ...(options.default !== undefined && { defaultValue: options.default }),
      ...(options.secret !== undefined && { secret: options.secret }),
      ...(options.acceptsVariables !== undefined && { acceptsVariables: options.acceptsVariables }),
      ...extra,
    }),
  };
};

const parseString = (value: unknown): Parsed<string> =>
  typeof value === 'string'
    ? valid(value)
    : typeof value === 'number' || typeof value === 'boolean'
      ? valid(String(value))
      : invalid('must be a string.');

/** Free text. Numbers and booleans (e.g. from a variable) are taken as their text. */
export const text = <const O extends ArgumentOptions<string>>(options: O): Argument<Value<string, O>> =>
  build('string', options, parseString);

export interface NumberOptions extends ArgumentOptions<number> {
  readonly integer?: boolean;
  readonly min?: number;
  readonly max?: number;
}

/** A number; numeric text is accepted, as forms and variables produce text. */
export const number = <const O extends NumberOptions>(options: O): Argument<Value<number, O>> =>
  build('number', options, (value) => {
    const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.trim()) : Number.NaN;
    if (!Number.isFinite(n)) return invalid('must be a number.');
    if (options.integer && !Number.isInteger(n)) return invalid('must be a whole number.');
    if (options.min !== undefined && n < options.min) return invalid(`must be at least ${options.min}.`);
    if (options.max !== undefined && n > options.max) return invalid(`must be at most ${options.max}.`);
    return valid(n);
  });

/** A switch; the text `true` and `false` are accepted too. */
export const boolean = <const O extends ArgumentOptions<boolean>>(options: O): Argument<Value<boolean, O>> =>
  build('boolean', options, (value) => {
    if (typeof value === 'boolean') return valid(value);
    if (value === 'true' || value === 'false') return valid(value === 'true');
    return invalid('must be true or false.');
  });

export interface DropdownOptions extends ArgumentOptions<ArgumentOption['value']> {
  readonly options: readonly ArgumentOption[];
}

type OptionValue<O extends DropdownOptions> = O['options'][number]['value'];

/** One of a fixed list of options; the value's type is the union of the option values. */
export const dropdown = <const O extends DropdownOptions>(options: O): Argument<Value<OptionValue<O>, O>> =>
  build(
    'dropdown',
    options,
    (value) => {
      // A variable renders `3` or `true` as text; the option is found by its text too.
      const match = options.options.find((o) => o.value === value || String(o.value) === String(value));
      return match
        ? valid(match.value)
        : invalid(`must be one of: ${options.options.map((o) => String(o.value)).join(', ')}.`);
    },
    { options: options.options },
  );

export interface DynamicDropdownOptions extends ArgumentOptions<string> {
  /** The key of the app's `dynamicData` entry that lists the options. */
  readonly dynamicData: string;
  /** Arguments whose values the options depend on (the UI reloads when they change). */
  readonly dependsOn?: readonly string[];
}

/** A dropdown whose options the app lists at run time (repositories, tables...); the value is text. */
export const dynamicDropdown = <const O extends DynamicDropdownOptions>(
  options: O,
): Argument<Value<string, O>, O['dynamicData']> => ({
  ...build('dropdown', options, parseString, {
    dynamicData: { key: options.dynamicData, dependsOn: options.dependsOn ?? [] },
  }),
  dynamicData: options.dynamicData,
});

export interface DynamicMultiSelectOptions extends ArgumentOptions<string[]> {
  readonly dynamicData: string;
  readonly dependsOn?: readonly string[];
  /**
   * Also take Automatisch's `dynamic` rows of one dropdown, `[{ <rowKey>: value }]` (its Asana
   * followers, Trello members...), so that steps saved in that shape keep working; empty rows are
   * dropped.
   */
  readonly rowKey?: string;
}

/**
 * Several options of a list the app gives at run time (flows, labels...); the value is the list of
 * the chosen values, as text. An empty list is a value: "none chosen".
 */
export const dynamicMultiSelect = <const O extends DynamicMultiSelectOptions>(
  options: O,
): Argument<Value<string[], O>, O['dynamicData']> => ({
  ...build(
    'dropdown',
    options,
    (value): Parsed<string[]> => {
      const list = 'must be a list of options.';
      if (!Array.isArray(value)) return invalid(list);
      const chosen: string[] = [];
      for (const entry of value) {
        const row = options.rowKey !== undefined && typeof entry === 'object' && entry !== null;
        const item: unknown = row ? (entry as Record<string, unknown>)[options.rowKey as string] : entry;
        if (row && isAbsent(item)) continue;
        if (typeof item !== 'string' && typeof item !== 'number') return invalid(list);
        chosen.push(String(item));
      }
      return valid([...new Set(chosen)]);
    },
    { multiple: true, dynamicData: { key: options.dynamicData, dependsOn: options.dependsOn ?? [] } },
  ),
  dynamicData: options.dynamicData,
});

const cellText = (value: unknown): string | null => {
  if (isAbsent(value)) return '';
  const parsed = parseString(value);
  return parsed.ok ? parsed.value : null;
};

export interface KeyValue {
  readonly key: string;
  readonly value: string;
}

/**
 * A list of `{key, value}` pairs (headers, columns...). Blank rows are dropped; scalar values are
 * taken as text and null as the empty text.
 */
export const keyValueList = <const O extends ArgumentOptions<readonly KeyValue[]>>(
  options: O,
): Argument<Value<KeyValue[], O>> =>
  build('keyValueList', options, (value) => {
    const shape = 'must be a list of {key, value} pairs.';
    if (!Array.isArray(value)) return invalid(shape);
    const rows: KeyValue[] = [];
    for (const row of value) {
      if (typeof row !== 'object' || row === null) return invalid(shape);
      const key = cellText((row as { key?: unknown }).key);
      const item = cellText((row as { value?: unknown }).value);
      if (key === null || item === null) return invalid(shape);
      if (key === '' && item === '') continue;
      if (key === '') return invalid('has a value without a key.');
      rows.push({ key, value: item });
    }
    if (rows.length === 0 && options.required && options.default === undefined) return invalid('is required.');
    return valid(rows);
  });

export interface CodeOptions extends ArgumentOptions<string> {
  /** The language the editor highlights, e.g. `javascript` or `sql`. */
  readonly language: string;
}

/** Source text shown in a code editor. */
export const code = <const O extends CodeOptions>(options: O): Argument<Value<string, O>> =>
  build('code', options, parseString, { language: options.language });

export interface JsonOptions extends ArgumentOptions<unknown> {
  /** Checks the parsed JSON further (e.g. `v.array(v.unknown(), 'must be a JSON array.')`) and types it. */
  readonly schema?: v.GenericSchema<unknown, unknown>;
}

type JsonValue<O extends JsonOptions> = O extends { readonly schema: v.GenericSchema<unknown, infer T> } ? T : unknown;

/** A JSON value, given as a value or as JSON text. */
export const json = <const O extends JsonOptions>(options: O): Argument<Value<JsonValue<O>, O>> =>
  build('json', options, (value) => {
    let parsed: unknown = value;
    if (typeof value === 'string') {
      try {
        parsed = JSON.parse(value);
      } catch {
        return invalid('must be valid JSON.');
      }
    }
    if (!options.schema) return valid(parsed);
    const result = v.safeParse(options.schema, parsed);
    return result.success ? valid(result.output) : invalid(result.issues[0].message);
  });

/** The descriptions of a map of arguments, in declaration order. */
export const describeArguments = (args: ArgumentMap): ArgumentDescription[] =>
  Object.entries(args).map(([key, argument]) => argument.describe(key));

/**
 * A rule across a step's arguments (each valid on its own): a message per argument it finds at
 * fault, or null when they fit together.
 */
export type ParametersCheck<P> = (parameters: P) => Readonly<Record<string, string>> | null;

/**
 * The schema of a whole map: every argument is checked (a missing one as `undefined`, so that
 * defaults and "is required." apply) and unknown keys are dropped unless `keepUnknown`. `check`
 * runs once every argument is valid, and its messages are keyed by argument like theirs.
 */
export const parametersSchema = <M extends ArgumentMap>(
  args: M,
  keepUnknown = false,
  check?: ParametersCheck<InferParameters<M>>,
): v.GenericSchema<unknown, InferParameters<M>> => {
  const entries = Object.fromEntries(Object.entries(args).map(([key, argument]) => [key, argument.schema]));
  const blanks = Object.fromEntries(Object.keys(args).map((key) => [key, undefined]));
  const schema = v.pipe(
    v.custom<Record<string, unknown>>(
      (input) => typeof input === 'object' && input !== null && !Array.isArray(input),
      'must be an object.',
    ),
    v.transform((input) => ({ ...blanks, ...input })),
    keepUnknown ? v.looseObject(entries) : v.object(entries),
  ) as v.GenericSchema<unknown, InferParameters<M>>;
  if (!check) return schema;
  return v.pipe(
    schema,
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const parameters = dataset.value as Record<string, unknown>;
      for (const [key, message] of Object.entries(check(dataset.value) ?? {})) {
        const item = { type: 'object', origin: 'value', input: parameters, key, value: parameters[key] } as const;
        addIssue({ message, path: [item] });
      }
    }),
  );
};
