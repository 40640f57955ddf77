import {
  type DocumentNode,
  type ExecutionResult,
  execute,
  GraphQLError,
  type GraphQLSchema,
  parse,
  validate,
} from 'graphql';
import { GRAPHQL_LIMITS, type GraphqlLimits, limitRules } from './limits.js';
import type { GraphqlRequest } from './request.js';
import type { GraphqlContext } from './resolvers.js';

/**
 * Runs one request: parse (bounded in tokens), the limits (alone first, so an oversized document
 * is refused before the specified rules walk it), the specified rules, then the operation.
 */
export const graphqlExecutor = (schema: GraphQLSchema, rootValue: object, limits: GraphqlLimits = GRAPHQL_LIMITS) => {
  const rules = limitRules(limits);
  return async (request: GraphqlRequest, context: GraphqlContext): Promise<ExecutionResult> => {
    let document: DocumentNode;
    try {
      document = parse(request.query, { maxTokens: limits.maxTokens });
    } catch (error) {
      if (error instanceof GraphQLError) return { errors: [error] };
      throw error;
    }
    const refused = validate(schema, document, rules);
    if (refused.length > 0) return { errors: refused };
    const invalid = validate(schema, document);
    if (invalid.length > 0) return { errors: invalid };
    return execute({
      schema,
      document,
      rootValue,
      contextValue: context,
      variableValues: request.variables,
      operationName: request.operationName,
    });
  };
};
