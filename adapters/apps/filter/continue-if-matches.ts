import * as v from 'valibot';
import { conditionHolds, firstMatchingGroup, type Group, OPERATORS } from '../../../core/domain/conditions.js';
import { defineAction, json, stopFlow } from '../sdk/index.js';

const SHAPE = 'must be a list of groups, each {"and": [{"key", "operator", "value"}]}.';

const condition = v.object(
  {
    key: v.optional(v.unknown()),
    operator: v.picklist(OPERATORS, `has an unknown operator; use one of: ${OPERATORS.join(', ')}.`),
    value: v.optional(v.unknown()),
  },
  SHAPE,
);

const groups = v.pipe(
  v.array(
    v.object({ and: v.pipe(v.array(condition, SHAPE), v.minLength(1, 'has a group without conditions.')) }, SHAPE),
    SHAPE,
  ),
  v.minLength(1, 'needs at least one group of conditions.'),
);

export const continueIfMatches = defineAction({
  key: 'continueIfMatches',
  name: 'Continue if conditions match',
  description: 'Lets the flow go on only when all conditions of at least one group hold; otherwise the run stops here.',
  arguments: {
    or: json({
      label: 'Condition groups',
      required: true,
      acceptsVariables: true,
      description:
        'The flow continues when every condition of any one group holds. Numbers and numeric text compare as ' +
        'numbers, other values as text; contains also finds an element of a list.',
      placeholder: '[{"and": [{"key": "{{step.1.status}}", "operator": "equal", "value": "paid"}]}]',
      schema: groups,
    }),
  },
  async run(ctx) {
    const or: readonly Group[] = ctx.parameters.or;
    const matchedGroup = firstMatchingGroup(or);
    // Each condition's result is kept, so that the execution shows why a run stopped or went on.
    const output = {
      matched: matchedGroup !== null,
      matchedGroup,
      or: or.map((group) => ({ and: group.and.map((c) => ({ ...c, holds: conditionHolds(c) })) })),
    };
    return matchedGroup === null ? stopFlow(output) : output;
  },
});
