import { describe, expect, it } from 'vitest';
import { type Condition, conditionHolds, firstMatchingGroup, type Operator } from './conditions.js';

type Row = readonly [key: unknown, operator: Operator, value: unknown, holds: boolean];

const rows: readonly Row[] = [
  // equal / not_equal: numbers and numeric text are the same number; other text is exact.
  [10, 'equal', '10', true],
  ['10.0', 'equal', 10, true],
  [' 7 ', 'equal', '7', true],
  ['abc', 'equal', 'abc', true],
  ['abc', 'equal', 'ABC', false],
  [true, 'equal', 'true', true],
  [{ a: 1 }, 'equal', '{"a":1}', true],
  [undefined, 'equal', '', true],
  [null, 'equal', undefined, true],
  [undefined, 'equal', 'x', false],
  ['0', 'equal', '', false],
  [0, 'not_equal', '', true],
  ['a', 'not_equal', 'b', true],
  ['5', 'not_equal', 5, false],
  // orderings: numeric when both sides are numbers, text otherwise; a missing side never orders.
  ['10', 'greater_than', '9', true],
  ['10', 'greater_than', 9, true],
  ['apple', 'greater_than', 'banana', false],
  ['2024-05-02T00:00:00Z', 'greater_than', '2024-05-01T23:00:00Z', true],
  [3, 'less_than', 3, false],
  [3, 'less_than_or_equal', '3', true],
  [-1, 'greater_than_or_equal', 0, false],
  [undefined, 'less_than', 5, false],
  [undefined, 'greater_than', 5, false],
  [5, 'greater_than', undefined, false],
  ['', 'less_than_or_equal', 0, false],
  // contains: text in text, or an equal element in a list.
  ['Hello world', 'contains', 'world', true],
  ['Hello world', 'contains', 'World', false],
  [12345, 'contains', 234, true],
  [['a', 'b'], 'contains', 'b', true],
  [[1, 2], 'contains', '2', true],
  [['ab'], 'contains', 'a', false],
  [undefined, 'contains', '', false],
  [undefined, 'not_contains', 'x', true],
  ['abc', 'not_contains', 'd', true],
  // emptiness: missing, null, blank text, empty lists and objects; 0 and false are values.
  [undefined, 'is_empty', undefined, true],
  [null, 'is_empty', undefined, true],
  ['   ', 'is_empty', undefined, true],
  [[], 'is_empty', undefined, true],
  [{}, 'is_empty', undefined, true],
  [0, 'is_empty', undefined, false],
  [false, 'is_empty', undefined, false],
  ['x', 'is_not_empty', undefined, true],
  [undefined, 'is_not_empty', undefined, false],
];

describe('conditionHolds', () => {
  it.each(rows)('%j %s %j is %s', (key, operator, value, holds) => {
    expect(conditionHolds({ key, operator, value })).toBe(holds);
  });
});

describe('firstMatchingGroup', () => {
  const yes: Condition = { key: 1, operator: 'equal', value: 1 };
  const no: Condition = { key: 1, operator: 'equal', value: 2 };

  it('needs every condition of a group and any one group', () => {
    expect(firstMatchingGroup([{ and: [yes, no] }, { and: [yes, yes] }])).toBe(1);
    expect(firstMatchingGroup([{ and: [yes] }, { and: [yes] }])).toBe(0);
    expect(firstMatchingGroup([{ and: [yes, no] }, { and: [no] }])).toBeNull();
    expect(firstMatchingGroup([])).toBeNull();
  });
});
