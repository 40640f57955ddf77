import { buildSchema, getIntrospectionQuery, parse, specifiedRules, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { costLimitRule, depthLimitRule, GRAPHQL_LIMITS, limitRules } from './limits.js';
import { buildGraphqlSchema } from './schema.js';

/** A schema that nests without end, so that depth and cost are the only bounds. */
const schema = buildSchema(`
  type Query { node: Node, nodes: [Node!]! }
  type Mutation { touch: Node }
  type Node { id: String, child: Node, children: [Node!]! }
`);

const depthErrors = (query: string, maxDepth: number) =>
  validate(schema, parse(query), [depthLimitRule({ maxDepth })]).map((e) => e.message);

const COST = { maxCost: 100, assumedListSize: 10, mutationCost: 10 };
/** The cost the rule counted, read from its message; 0 when it let the operation pass. */
const cost = (query: string, limits: Partial<typeof COST> = {}) => {
  const [error] = validate(schema, parse(query), [costLimitRule({ ...COST, maxCost: 0, ...limits })]);
  return error ? Number(/costs (\d+|Infinity)/.exec(error.message)?.[1]) : 0;
};

describe('depthLimitRule', () => {
  it('lets an operation as deep as the limit pass and refuses one level more', () => {
    expect(depthErrors('{ node { child { child { id } } } }', 4)).toEqual([]);
    expect(depthErrors('{ node { child { child { child { id } } } } }', 4)).toEqual([
      'The operation nests fields 5 deep; at most 4 levels are allowed.',
    ]);
  });

  it('counts through named and inline fragments', () => {
    const named = 'query { node { ...Two } } fragment Two on Node { child { child { id } } }';
    expect(depthErrors(named, 4)).toEqual([]);
    expect(depthErrors(named, 3)).toHaveLength(1);
    const inline = '{ node { ... on Node { child { ... { child { id } } } } } }';
    expect(depthErrors(inline, 3)).toHaveLength(1);
    expect(depthErrors(inline, 4)).toEqual([]);
  });

  it('measures each operation of a document on its own', () => {
    const doc = 'query Shallow { node { id } } query Deep { node { child { child { id } } } }';
    const errors = validate(schema, parse(doc), [depthLimitRule({ maxDepth: 2 })]);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.nodes?.[0]).toMatchObject({ name: { value: 'Deep' } });
  });

  it('leaves introspection to graphql-js, and does not count __typename', () => {
    expect(depthErrors('{ __schema { types { fields { type { ofType { name } } } } } }', 1)).toEqual([]);
    expect(depthErrors('{ node { __typename } }', 1)).toEqual([]);
  });

  it('stops at fragment cycles and unknown fragments, which the specified rules report', () => {
    const cyclic =
      'query { node { ...A } } fragment A on Node { child { ...B } } fragment B on Node { child { ...A } }';
    expect(depthErrors(cyclic, 10)).toEqual([]);
    expect(depthErrors('{ node { ...Missing } }', 10)).toEqual([]);
  });
});

describe('costLimitRule', () => {
  it('counts one per field and the selections of a list as many times as a list is assumed long', () => {
    expect(cost('{ node { id } }')).toBe(2);
    expect(cost('{ node { id child { id } } }')).toBe(4);
    expect(cost('{ nodes { id } }')).toBe(1 + 10 * 1);
    expect(cost('{ nodes { id children { id } } }')).toBe(1 + 10 * (1 + 1 + 10 * 1));
    expect(cost('{ nodes { id } }', { assumedListSize: 3 })).toBe(1 + 3 * 1);
  });

  it('adds the mutation cost for each mutation field, aliases included', () => {
    expect(cost('mutation { touch { id } }')).toBe(1 + 10 + 1);
    expect(cost('mutation { a: touch { id } b: touch { id } }')).toBe(2 * (1 + 10 + 1));
    expect(cost('mutation { ...M } fragment M on Mutation { touch { id } }')).toBe(1 + 10 + 1);
  });

  it('spreads fragments out, each time they are used', () => {
    const doc = 'query { a: node { ...F } b: node { ...F } } fragment F on Node { id child { id } }';
    expect(cost(doc)).toBe(2 * (1 + 3));
  });

  it('measures a fragment bomb without expanding it', () => {
    // F0 spreads F1 twice, F1 spreads F2 twice, ...: 2^40 fields once spread out.
    const fragments = Array.from(
      { length: 40 },
      (_, i) => `fragment F${i} on Node { a: child { ...F${i + 1} } b: child { ...F${i + 1} } }`,
    );
    const doc = `query { node { ...F0 } } ${fragments.join(' ')} fragment F40 on Node { id }`;
    const started = performance.now();
    expect(cost(doc)).toBeGreaterThan(2 ** 40);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('lets an operation at the limit pass', () => {
    const rule = costLimitRule({ ...COST, maxCost: 11 });
    expect(validate(schema, parse('{ nodes { id } }'), [rule])).toEqual([]);
    expect(validate(schema, parse('{ nodes { id } x: node { id } }'), [rule]).map((e) => e.message)).toEqual([
      'The operation costs 13; at most 11 is allowed.',
    ]);
  });

  it('counts introspection fields once each, not as lists', () => {
    expect(cost('{ __schema { types { name } } }')).toBe(3);
    expect(cost('{ node { __typename } }')).toBe(2);
  });
});

describe('the limits of the served schema', () => {
  const served = buildGraphqlSchema();

  it('let the standard introspection query through, with the specified rules too', () => {
    const document = parse(getIntrospectionQuery(), { maxTokens: GRAPHQL_LIMITS.maxTokens });
    expect(validate(served, document, [...limitRules(), ...specifiedRules])).toEqual([]);
  });

  it('let a full selection of every mutation through, and refuse forty current users', () => {
    const user =
      'id email fullName status roleId role { id name description isAdmin } permissions { action subject conditions }';
    const mutations = `mutation {
      updateUser(input: { id: "x" }) { ${user} }
      updateStep(input: { id: "x" }) { id flowId type appKey key name position status parameters connectionId }
      verifyConnection(input: { id: "x" }) { id key formattedData { screenName } verified }
    }`;
    expect(validate(served, parse(mutations), limitRules())).toEqual([]);
    const greedy = `{ ${Array.from({ length: 40 }, (_, i) => `u${i}: currentUser { ${user} }`).join(' ')} }`;
    expect(validate(served, parse(greedy), limitRules()).map((e) => e.message)).toEqual([
      expect.stringMatching(/^The operation costs \d+; at most 1000 is allowed\.$/),
    ]);
  });
});
