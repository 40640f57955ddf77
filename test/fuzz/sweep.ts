import fc from 'fast-check';
import { encode, expandDeepValues, hugeString, POLLUTION_MARK } from './hostile.js';
import type { FuzzContext, FuzzRequest, FuzzRoute } from './routes.js';
import { type JsonSchema, schemaValue } from './schema-arbitrary.js';

/** One hostile value of each kind, to put in every field of every body. */
const HOSTILE_VALUES: readonly [string, unknown][] = [
  ['deep', '\u0001fuzz-deep:4000'],
  ['huge', fc.sample(hugeString, { numRuns: 1, seed: 1 })[0]],
  ['nul', 'a\u0000b'],
  ['number', 1e308],
  ['array', [1, 'a', null]],
  ['object', { a: 1 }],
  ['null', null],
  ['pollution', JSON.parse(`{"__proto__":{"${POLLUTION_MARK}":true}}`)],
];

const sampleOf = <T>(arbitrary: fc.Arbitrary<T>, seed: number): T => fc.sample(arbitrary, { numRuns: 1, seed })[0] as T;

/** A body holding only the required fields, which the other fields' variants start from. */
const minimalBody = (schema: JsonSchema, context: FuzzContext, seed: number): Record<string, unknown> => {
  const required = new Set(schema.required ?? []);
  const properties = Object.entries(schema.properties ?? {}).filter(([name]) => required.has(name));
  return Object.fromEntries(
    properties.map(([name, property]) => [name, sampleOf(schemaValue(property, context.pool), seed)]),
  );
};

const isObjectSchema = (schema: JsonSchema) =>
  schema.type === 'object' || (schema.anyOf ?? []).some((alternative) => alternative.type === 'object');

/**
 * Every field of every JSON body, in turn, given each kind of hostile value (and, for a field that
 * holds an object, a key of it given one): what random generation reaches only now and then. Sent
 * by the administrator, to a real id, so that the request gets as far as it can.
 */
export const sweepRequests = (routes: readonly FuzzRoute[], context: FuzzContext, admin: Record<string, string>) => {
  const requests: FuzzRequest[] = [];
  routes.forEach((route, index) => {
    const schema = route.body?.schema;
    if (!schema?.properties || route.body?.contentType !== 'application/json') return;
    const path = route.template.replace(/\{(\w+)\}/g, (_whole, name: string) => {
      const real = context.realValues[name] ?? [];
      return encode(real[real.length - 1] ?? '00000000-0000-4000-8000-000000000000');
    });
    const base = minimalBody(schema, context, index);
    for (const [field, property] of Object.entries(schema.properties)) {
      for (const [, value] of HOSTILE_VALUES) {
        const bodies = [{ ...base, [field]: value }];
        if (isObjectSchema(property)) bodies.push({ ...base, [field]: { key: value } });
        for (const body of bodies)
          requests.push({
            method: route.method,
            route: `${route.method} ${route.template}`,
            path,
            headers: { ...admin, 'content-type': 'application/json' },
            body: expandDeepValues(JSON.stringify(body)),
          });
      }
    }
  });
  return requests;
};
