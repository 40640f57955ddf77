import {
  type ASTVisitor,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLNamedType,
  type GraphQLOutputType,
  getNamedType,
  isInterfaceType,
  isIntrospectionType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  SchemaMetaFieldDef,
  type SelectionSetNode,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export interface GraphqlLimits {
  /** Fields nested in one another, introspection aside. */
  readonly maxDepth: number;
  /** The cost of one operation, as `operationCost` counts it. */
  readonly maxCost: number;
  /** What a list field is assumed to hold: its selections count this many times. */
  readonly assumedListSize: number;
  /** Added for each mutation field: a write, maybe a call to another service. */
  readonly mutationCost: number;
  /** Tokens in a document: the parser stops past this, before any rule runs. */
  readonly maxTokens: number;
}

/**
 * The served schema is at most three levels deep (`updateUser { role { name } } }`); the limits
 * leave room for growth and none for abuse. The standard introspection query passes them: its
 * nesting is bounded by graphql-js's own `MaxIntrospectionDepthRule` instead.
 */
export const GRAPHQL_LIMITS: GraphqlLimits = {
  maxDepth: 6,
  maxCost: 1000,
  assumedListSize: 10,
  mutationCost: 10,
  maxTokens: 2000,
};

/** A fragment's measure does not depend on where it is spread, so each is measured once. */
const fragmentMeasure = (context: ValidationContext, measure: (fragment: FragmentDefinitionNode) => number) => {
  const known = new Map<string, number>();
  const open = new Set<string>();
  return (name: string): number => {
    const seen = known.get(name);
    if (seen !== undefined) return seen;
    const fragment = context.getFragment(name);
    // Unknown and cyclic fragments are reported by the specified rules; they add nothing here.
    if (!fragment || open.has(name)) return 0;
    open.add(name);
    const value = measure(fragment);
    open.delete(name);
    known.set(name, value);
    return value;
  };
};

const overLimit = (context: ValidationContext, node: OperationDefinitionNode, message: string) =>
  context.reportError(new GraphQLError(message, { nodes: [node] }));

/**
 * Refuses an operation whose fields nest deeper than `maxDepth`, fragments spread out. Fields of
 * introspection (`__schema`, `__type`, `__typename`) do not count.
 */
export const depthLimitRule =
  ({ maxDepth }: Pick<GraphqlLimits, 'maxDepth'>): ValidationRule =>
  (context) => {
    const depthOf = (set: SelectionSetNode): number => {
      let deepest = 0;
      for (const selection of set.selections) {
        const depth =
          selection.kind === Kind.FIELD
            ? selection.name.value.startsWith('__')
              ? 0
              : 1 + (selection.selectionSet ? depthOf(selection.selectionSet) : 0)
            : selection.kind === Kind.INLINE_FRAGMENT
              ? depthOf(selection.selectionSet)
              : fragmentDepth(selection.name.value);
        deepest = Math.max(deepest, depth);
      }
      return deepest;
    };
    const fragmentDepth = fragmentMeasure(context, (fragment) => depthOf(fragment.selectionSet));
    return {
      OperationDefinition(node): void {
        const depth = depthOf(node.selectionSet);
        if (depth > maxDepth) {
          overLimit(context, node, `The operation nests fields ${depth} deep; at most ${maxDepth} levels are allowed.`);
        }
      },
    } satisfies ASTVisitor;
  };

const fieldType = (parent: GraphQLNamedType | undefined, name: string): GraphQLOutputType | undefined => {
  if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef.type;
  if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef.type;
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef.type;
  return parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[name]?.type : undefined;
};

const isList = (type: GraphQLOutputType) => isListType(isNonNullType(type) ? type.ofType : type);

/**
 * Refuses an operation that costs more than `maxCost`: every field costs 1, fragments spread out;
 * a list field's selections count `assumedListSize` times (not introspection's lists, which are
 * as long as the schema is small); each mutation field costs `mutationCost` more.
 */
export const costLimitRule =
  (limits: Pick<GraphqlLimits, 'maxCost' | 'assumedListSize' | 'mutationCost'>): ValidationRule =>
  (context) => {
    const schema = context.getSchema();
    const mutationType = schema.getMutationType();
    const costOf = (set: SelectionSetNode, parent: GraphQLNamedType | undefined): number => {
      let total = 0;
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          const type = fieldType(parent, selection.name.value);
          const named = type && getNamedType(type);
          const children = selection.selectionSet ? costOf(selection.selectionSet, named) : 0;
          const times = type && named && isList(type) && !isIntrospectionType(named) ? limits.assumedListSize : 1;
          const own = parent !== undefined && parent === mutationType ? 1 + limits.mutationCost : 1;
          total += own + times * children;
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          const condition = selection.typeCondition && schema.getType(selection.typeCondition.name.value);
          total += costOf(selection.selectionSet, condition ?? parent);
        } else {
          total += fragmentCost(selection.name.value);
        }
      }
      return total;
    };
    const fragmentCost = fragmentMeasure(context, (fragment) =>
      costOf(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? undefined),
    );
    return {
      OperationDefinition(node): void {
        const cost = costOf(node.selectionSet, schema.getRootType(node.operation) ?? undefined);
        if (cost > limits.maxCost) {
          overLimit(context, node, `The operation costs ${cost}; at most ${limits.maxCost} is allowed.`);
        }
      },
    } satisfies ASTVisitor;
  };

/** The rules that run before the specified ones, so that an oversized document is refused cheaply. */
export const limitRules = (limits: GraphqlLimits = GRAPHQL_LIMITS): readonly ValidationRule[] => [
  depthLimitRule(limits),
  costLimitRule(limits),
];
