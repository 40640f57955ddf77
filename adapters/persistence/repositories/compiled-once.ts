import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from '../schema.js';
import type { Executor } from './executor.js';

const SLOT = Symbol('compiled-once slot');

interface Placeholder {
  readonly [SLOT]: string;
}

const isPlaceholder = (value: unknown): value is Placeholder =>
  typeof value === 'object' && value !== null && SLOT in value;

/** Where each of the compiled statement's parameters comes from: a named value, or a constant of the query. */
type Source = { readonly name: string } | { readonly constant: unknown };

interface Template<R> {
  readonly compiled: CompiledQuery<R>;
  readonly sources: readonly Source[];
}

/**
 * A statement of one fixed shape, built and compiled by Kysely once per dialect and then run with
 * each call's values. Building and compiling a query tree on every call cost the engine about a
 * sixth of its CPU on its hot path (docs/engine.md); the SQL text and parameter order never change
 * for these statements, so only the values need filling in.
 *
 * `build` gets one placeholder per name (typed `never`, so it fits any column) and must use each
 * only as a plain value: not in an `in (...)` list, not through a function that reads it. Values
 * must arrive encoded for the dialect (the codec's timestamps, booleans and JSON).
 */
export const compiledOnce = <K extends string, R>(
  names: readonly K[],
  build: (db: Kysely<Database>, values: Record<K, never>) => Compilable<R>,
) => {
  const byDialect = new Map<string, Template<R>>();

  const templateFor = ({ db, codec }: Executor): Template<R> => {
    const known = byDialect.get(codec.dialect);
    if (known) return known;
    const placeholders = Object.fromEntries(names.map((name) => [name, { [SLOT]: name }])) as Record<K, never>;
    const compiled = build(db, placeholders).compile();
    const sources = compiled.parameters.map((parameter): Source => {
      if (isPlaceholder(parameter)) return { name: parameter[SLOT] };
      if (typeof parameter === 'object' && parameter !== null) {
        // A placeholder that went through a function (JSON, an array) would be baked in as this object.
        throw new Error(`compiledOnce: the statement "${compiled.sql}" has a parameter that is not a plain value`);
      }
      return { constant: parameter };
    });
    const template = { compiled, sources };
    byDialect.set(codec.dialect, template);
    return template;
  };

  return async (executor: Executor, values: Record<K, unknown>) => {
    const { compiled, sources } = templateFor(executor);
    const parameters = sources.map((source) => ('name' in source ? values[source.name as K] : source.constant));
    return executor.db.executeQuery<R>({ ...compiled, parameters });
  };
};
