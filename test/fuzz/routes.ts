import fc from 'fast-check';
import {
  encode,
  expandDeepValues,
  hostileBodyText,
  hostileQueryPair,
  hostileSegment,
  hostileValue,
  mutateBody,
} from './hostile.js';
import { type IdPool, type JsonSchema, oneOfLive, schemaValue } from './schema-arbitrary.js';

/** One operation of the OpenAPI document, as the fuzzer needs it. */
export interface FuzzRoute {
  readonly method: string;
  /** The whole path with `{name}` placeholders, as the document writes it. */
  readonly template: string;
  readonly pathParameters: readonly string[];
  readonly query: readonly { readonly name: string; readonly required: boolean; readonly schema: JsonSchema }[];
  readonly body?: { readonly contentType: string; readonly schema: JsonSchema };
}

/** A request, ready to send: the path with its query string, and the body as text. */
export interface FuzzRequest {
  readonly method: string;
  readonly route: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

type Document = {
  paths: Record<string, Record<string, any>>;
  components: { parameters: Record<string, any> };
};

const resolve = (document: Document, parameter: any) =>
  parameter.$ref ? document.components.parameters[String(parameter.$ref).split('/').pop() as string] : parameter;

/** Every operation the document lists: new routes are fuzzed without a change here. */
export const routesOf = (document: unknown): FuzzRoute[] =>
  Object.entries((document as Document).paths).flatMap(([template, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const parameters = (operation.parameters ?? []).map((p: any) => resolve(document as Document, p));
      const content = Object.entries(operation.requestBody?.content ?? {})[0] as [string, any] | undefined;
      return {
        method: method.toUpperCase(),
        template,
        pathParameters: parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name),
        query: parameters
          .filter((p: any) => p.in === 'query')
          .map((p: any) => ({ name: p.name, required: p.required, schema: p.schema })),
        ...(content && { body: { contentType: content[0], schema: content[1].schema } }),
      };
    }),
  );

/** Ids and keys that exist, by path parameter name; any other name gets only made-up values. */
export type RealValues = Readonly<Record<string, readonly string[]>>;

/** What the fuzzer knows of the instance: who may call, and what exists. */
export interface FuzzContext {
  readonly realValues: RealValues;
  readonly pool: IdPool;
  /** The callers' headers: anonymous, a plain user, an administrator, an API token. */
  readonly callers: readonly Record<string, string>[];
  /** GraphQL documents that the schema serves, to send with fuzzed variables. */
  readonly graphqlQueries: readonly string[];
}

const segmentOf = (name: string, context: FuzzContext): fc.Arbitrary<string> => {
  const real = context.realValues[name] ?? [];
  const made = fc.oneof(fc.uuid(), hostileSegment);
  return real.length > 0
    ? fc.oneof({ weight: 3, arbitrary: oneOfLive(real).map(encode) }, { weight: 2, arbitrary: made })
    : made;
};

const stringified = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

const queryOf = (route: FuzzRoute, context: FuzzContext): fc.Arbitrary<string> => {
  const pairs = route.query.map(({ name, required, schema }) => {
    const value = fc.oneof(
      { weight: 4, arbitrary: schemaValue(schema, context.pool).map(stringified) },
      { weight: 1, arbitrary: hostileValue.map(stringified) },
    );
    const pair = value.map((v) => `${encode(name)}=${encode(v)}`);
    return required ? pair : fc.option(pair, { nil: undefined });
  });
  return fc
    .tuple(fc.tuple(...pairs), fc.array(hostileQueryPair, { maxLength: 2 }), fc.boolean())
    .map(([own, hostile, withHostile]) =>
      [...own.filter((pair): pair is string => pair !== undefined), ...(withHostile ? hostile : [])].join('&'),
    );
};

const FORM = 'application/x-www-form-urlencoded';

const formText = (value: unknown) =>
  value && typeof value === 'object'
    ? new URLSearchParams(Object.entries(value).map(([k, v]): [string, string] => [k, stringified(v)])).toString()
    : stringified(value);

/** The body and its content type: mostly what the schema says, else hostile text or a wrong type. */
const bodyOf = (route: FuzzRoute, context: FuzzContext): fc.Arbitrary<{ text?: string; contentType?: string }> => {
  const schema = route.body?.schema ?? {};
  const declared = route.body?.contentType ?? 'application/json';
  const encode = declared === FORM ? formText : (value: unknown) => expandDeepValues(JSON.stringify(value) ?? 'null');
  const graphql =
    route.template === '/graphql' && context.graphqlQueries.length > 0
      ? [
          fc
            .record({
              query: fc.constantFrom(...context.graphqlQueries),
              variables: fc.oneof(schemaValue({}, context.pool), mutateBody({})),
            })
            .chain((body) => fc.oneof(fc.constant(body), mutateBody(body))),
        ]
      : [];
  const valid = fc.oneof(schemaValue(schema, context.pool), ...graphql);
  return fc.oneof(
    { weight: 5, arbitrary: valid.map((value) => ({ text: encode(value), contentType: declared })) },
    {
      weight: 3,
      arbitrary: valid.chain(mutateBody).map((value) => ({ text: encode(value), contentType: declared })),
    },
    { weight: 2, arbitrary: hostileBodyText.map((text) => ({ text, contentType: declared })) },
    {
      weight: 1,
      arbitrary: fc.record({
        text: fc.oneof(
          valid.map((value) => JSON.stringify(value) ?? ''),
          hostileBodyText,
        ),
        contentType: fc.constantFrom(
          'text/plain',
          'application/xml',
          'multipart/form-data; boundary=x',
          FORM,
          'application/json; charset=latin1',
          'application/json; charset=utf-16',
          'APPLICATION/JSON',
          'application/x-json-stream',
          '',
          ';;;',
        ),
      }),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );
};

/** A caller, sometimes with credentials that are malformed rather than merely wrong. */
const headersOf = (context: FuzzContext): fc.Arbitrary<Record<string, string>> =>
  fc.oneof(
    ...context.callers.map((caller) => ({
      weight: Object.keys(caller).length === 0 ? 1 : 3,
      arbitrary: fc.constant(caller),
    })),
    {
      weight: 1,
      arbitrary: fc.record({
        authorization: fc.oneof(
          fc.constantFrom('Bearer', 'Bearer ', 'Basic YTpi', 'bearer x.y.z', `Bearer ${'a'.repeat(10_000)}`),
          fc.string({ maxLength: 60 }).map((s) => `Bearer ${s.replace(/[^\x20-\x7e]/g, '')}`),
        ),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ 'x-api-token': fc.string({ maxLength: 80 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')) }),
    },
  );

/** A request to `route`: its path parameters, query, body and caller all generated. */
export const requestOf = (route: FuzzRoute, context: FuzzContext): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      segments: fc.tuple(...route.pathParameters.map((name) => segmentOf(name, context))),
      query: queryOf(route, context),
      body:
        route.body || route.method !== 'GET'
          ? bodyOf(route, context)
          : fc.constant<{ text?: string; contentType?: string }>({}),
      headers: headersOf(context),
    })
    .map(({ segments, query, body, headers }) => {
      let index = 0;
      const path = route.template.replace(/\{\w+\}/g, () => segments[index++] as string);
      return {
        method: route.method,
        route: `${route.method} ${route.template}`,
        path: query ? `${path}?${query}` : path,
        headers: { ...headers, ...(body.contentType !== undefined && { 'content-type': body.contentType }) },
        ...(body.text !== undefined && { body: body.text }),
      };
    });

/** Requests to any route of the list; a route with a body schema has more to get wrong, so thrice as often. */
export const anyRequest = (routes: readonly FuzzRoute[], context: FuzzContext): fc.Arbitrary<FuzzRequest> =>
  fc.oneof(...routes.map((route) => ({ weight: route.body ? 3 : 1, arbitrary: requestOf(route, context) })));
