import {
  type ArgumentMap,
  type DynamicFieldsHandler,
  defineAction,
  describeArguments,
  dropdown,
  type InferParameters,
  parseParameters,
} from '../sdk/index.js';

/** One choice of a formatter action: the fields it adds, and what it makes of them. */
export interface Transform<M extends ArgumentMap, B> {
  readonly label: string;
  readonly fields: M;
  /** `base` holds the action's own arguments (the text action's `input`). */
  run(fields: InferParameters<M>, base: B): unknown;
}

export const defineTransform = <const M extends ArgumentMap, B = unknown>(transform: Transform<M, B>) => transform;

export interface TransformActionOptions<S extends ArgumentMap, F extends string> {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  /** Arguments every transform shares, shown before the transform's own fields. */
  readonly arguments: S;
  readonly transforms: Readonly<Record<string, Transform<any, InferParameters<S>>>>;
  readonly dynamicFieldsKey: F;
}

/**
 * An action whose `transform` dropdown chooses among transforms, each with its own fields. The
 * fields are dynamic (only those of the chosen transform are shown) and, since the catalog passes
 * dynamic values through unchecked, they are validated here against the transform's arguments.
 */
export const transformAction = <const S extends ArgumentMap, const F extends string>(
  options: TransformActionOptions<S, F>,
) => {
  const { transforms } = options;
  const choose = (key: unknown) => (typeof key === 'string' && Object.hasOwn(transforms, key) ? transforms[key] : null);
  const action = defineAction({
    key: options.key,
    name: options.name,
    description: options.description,
    dynamicFieldsKey: options.dynamicFieldsKey,
    arguments: {
      transform: dropdown({
        label: 'Transform',
        required: true,
        options: Object.entries(transforms).map(([value, t]) => ({ label: t.label, value })),
      }),
      ...options.arguments,
    },
    async run(ctx) {
      const transform = choose(ctx.parameters.transform);
      if (!transform) throw new Error(`Unknown transform ${String(ctx.parameters.transform)}.`);
      const base = ctx.parameters as unknown as InferParameters<S>;
      return { output: await transform.run(parseParameters(transform.fields, ctx.parameters), base) };
    },
  });
  const fields: DynamicFieldsHandler = async (ctx) => {
    const transform = choose(ctx.parameters.transform);
    return transform ? describeArguments(transform.fields) : [];
  };
  return { action, fields };
};
