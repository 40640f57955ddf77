/** How the filter app compares values. Pure, so that every rule is tested on its own. */
import { CONDITION_OPERATORS, type ConditionOperator } from '../../../core/domain/flow.js';

/** The domain's list: a branch's conditions (step-tree.ts) use the same operators. */
export const OPERATORS = CONDITION_OPERATORS;

export type Operator = ConditionOperator;

export interface Condition {
  /** The value under test, usually a variable such as `{{step.1.body.status}}`. */
  readonly key?: unknown;
  readonly operator: Operator;
  readonly value?: unknown;
}

export interface Group {
  readonly and: readonly Condition[];
}

const isBlank = (value: unknown) => value === undefined || value === null || value === '';

/** Forms and variables produce text: `"10"` and `10` are the same number. */
const asNumber = (value: unknown): number | null => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value.trim());
  return Number.isFinite(n) ? n : null;
};

const asText = (value: unknown): string => {
  if (isBlank(value)) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
};

/** Numbers when both sides are numbers, otherwise text (ISO dates compare correctly as text). */
const compare = (left: unknown, right: unknown): number => {
  const a = asNumber(left);
  const b = asNumber(right);
  if (a !== null && b !== null) return a - b;
  const x = asText(left);
  const y = asText(right);
  return x < y ? -1 : x > y ? 1 : 0;
};

const equal = (left: unknown, right: unknown) => {
  if (isBlank(left) || isBlank(right)) return isBlank(left) && isBlank(right);
  return compare(left, right) === 0;
};

const isEmpty = (value: unknown): boolean => {
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length === 0;
  return value === undefined || value === null;
};

/** Text contains text; a list contains an element equal to the value. */
const contains = (haystack: unknown, needle: unknown): boolean => {
  if (isBlank(haystack)) return false;
  if (Array.isArray(haystack)) return haystack.some((item) => equal(item, needle));
  return asText(haystack).includes(asText(needle));
};

/** An ordering needs two values: a missing side makes it false rather than comparing with "". */
const ordered = (condition: Condition, holds: (difference: number) => boolean) =>
  !isBlank(condition.key) && !isBlank(condition.value) && holds(compare(condition.key, condition.value));

export const conditionHolds = (condition: Condition): boolean => {
  const { key, value } = condition;
  switch (condition.operator) {
    case 'equal':
      return equal(key, value);
    case 'not_equal':
      return !equal(key, value);
    case 'greater_than':
      return ordered(condition, (d) => d > 0);
    case 'less_than':
      return ordered(condition, (d) => d < 0);
    case 'greater_than_or_equal':
      return ordered(condition, (d) => d >= 0);
    case 'less_than_or_equal':
      return ordered(condition, (d) => d <= 0);
    case 'contains':
      return contains(key, value);
    case 'not_contains':
      return !contains(key, value);
    case 'is_empty':
      return isEmpty(key);
    case 'is_not_empty':
      return !isEmpty(key);
  }
};

/** The index of the first group whose conditions all hold, or null when none does. */
export const firstMatchingGroup = (groups: readonly Group[]): number | null => {
  const index = groups.findIndex((group) => group.and.every(conditionHolds));
  return index === -1 ? null : index;
};
