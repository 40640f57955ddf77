import { type AppContext, defineAction, dynamicDropdown, text } from '../sdk/index.js';
import { apiName, query, soqlLikeText, soqlText } from './api.js';

const objectAndField = {
  object: dynamicDropdown({
    label: 'Object',
    required: true,
    dynamicData: 'listObjects',
    description: 'Pick which type of object you want to search for.',
    acceptsVariables: true,
    check: apiName,
  }),
  field: dynamicDropdown({
    label: 'Field',
    required: true,
    dynamicData: 'listFields',
    dependsOn: ['object'],
    description: 'Pick which field to search by.',
    acceptsVariables: true,
    check: apiName,
  }),
};

type Search = { object: string; field: string; searchValue: string };

/**
 * The first record matching a condition, with `found`, or `{ found: false }`: a later step can
 * branch on it. Names are checked as API names and the value is escaped by `condition`, so
 * nothing typed changes the query's shape.
 */
const findFirst =
  (condition: (field: string, value: string) => string) =>
  async (ctx: AppContext<Search>): Promise<Record<string, unknown>> => {
    const { object, field, searchValue } = ctx.parameters;
    const { records } = await query(
      ctx.http,
      `SELECT FIELDS(ALL) FROM ${object} WHERE ${condition(field, searchValue)} LIMIT 1`,
    );
    return records[0] ? { found: true, ...records[0] } : { found: false };
  };

export const findRecord = defineAction({
  key: 'findRecord',
  name: 'Find record',
  description: 'Finds a record of an object whose field equals a value.',
  arguments: {
    ...objectAndField,
    searchValue: text({ label: 'Search value', required: true, acceptsVariables: true }),
  },
  run: findFirst((field, value) => `${field} = '${soqlText(value)}'`),
});

export const findPartiallyMatchingRecord = defineAction({
  key: 'findPartiallyMatchingRecord',
  name: 'Find partially matching record',
  description: 'Finds a record of an object whose field contains a value.',
  arguments: {
    ...objectAndField,
    searchValue: text({
      label: 'Search value to contain',
      required: true,
      description: 'The value to search for in the field.',
      acceptsVariables: true,
    }),
  },
  run: findFirst((field, value) => `${field} LIKE '%${soqlLikeText(value)}%'`),
});

export const executeQuery = defineAction({
  key: 'executeQuery',
  name: 'Execute query',
  description: "Runs a SOQL query and returns Salesforce's answer (its first batch of records).",
  arguments: {
    query: text({
      label: 'Query',
      required: true,
      description: 'Salesforce query string. For example: SELECT Id, Name FROM Account',
      acceptsVariables: true,
    }),
  },
  run: (ctx) => query(ctx.http, ctx.parameters.query),
});
