import { useState } from 'preact/hooks';
import { type BranchConditions, CONDITION_OPERATORS, type Condition, type ConditionOperator } from '../types';
import { readableTemplate } from './fields/template';
import { ValueWithVariables } from './variable-picker';
import type { ChoiceGroup } from './variables';

/** The filter app's operators as a sentence reads them. */
const OPERATOR_LABELS: Record<ConditionOperator, string> = {
  equal: 'equals',
  not_equal: 'does not equal',
  greater_than: 'is greater than',
  less_than: 'is less than',
  greater_than_or_equal: 'is at least',
  less_than_or_equal: 'is at most',
  contains: 'contains',
  not_contains: 'does not contain',
  is_empty: 'is empty',
  is_not_empty: 'is not empty',
};

const operatorLabel = (operator: string) => OPERATOR_LABELS[operator as ConditionOperator] ?? operator;

/** Operators that compare with nothing. */
const needsValue = (operator: string) => operator !== 'is_empty' && operator !== 'is_not_empty';

/**
 * A branch's conditions in a line: `When a equals b and c is empty, or when …`, variables by their
 * labels (from `variables`, what the branch may read); the fallback says so.
 */
export const conditionsSummary = (
  conditions: BranchConditions | null | undefined,
  variables: readonly ChoiceGroup[] = [],
): string => {
  const groups = conditions ?? [];
  if (groups.length === 0) return 'Otherwise: taken when no other branch is.';
  const readable = (text: string) => (text ? readableTemplate(text, variables) : '(empty)');
  const condition = (c: Condition) =>
    [readable(c.key), operatorLabel(c.operator), needsValue(c.operator) ? readable(c.value) : '']
      .filter(Boolean)
      .join(' ');
  return `When ${groups.map((g) => g.and.map(condition).join(' and ')).join(', or when ')}.`;
};

const NEW_CONDITION: Condition = { key: '', operator: 'equal', value: '' };

/**
 * Groups of conditions, as the filter app has them: the branch is taken when every condition of
 * any group holds. Removing the last condition of a group removes the group; with no group left
 * the branch is the fallback ("Otherwise").
 */
export const ConditionsEditor = ({
  branchName,
  initial,
  variables,
  busy,
  onSave,
  onCancel,
}: {
  branchName: string;
  initial: BranchConditions;
  variables: readonly ChoiceGroup[];
  busy: boolean;
  onSave: (conditions: BranchConditions) => void;
  onCancel: () => void;
}) => {
  const [groups, setGroups] = useState<BranchConditions>(initial);
  const setCondition = (g: number, c: number, patch: Partial<Condition>) =>
    setGroups(
      groups.map((group, gi) =>
        gi === g ? { and: group.and.map((cond, ci) => (ci === c ? { ...cond, ...patch } : cond)) } : group,
      ),
    );
  const removeCondition = (g: number, c: number) =>
    setGroups(
      groups
        .map((group, gi) => (gi === g ? { and: group.and.filter((_, ci) => ci !== c) } : group))
        .filter((group) => group.and.length > 0),
    );
  const addCondition = (g: number) =>
    setGroups(groups.map((group, gi) => (gi === g ? { and: [...group.and, { ...NEW_CONDITION }] } : group)));
  return (
    <form
      class="conditions-editor"
      aria-label={`Conditions of ${branchName}`}
      onSubmit={(event) => {
        event.preventDefault();
        onSave(groups);
      }}
    >
      {groups.length === 0 && (
        <p class="hint">
          No conditions: this branch is the fallback (“Otherwise”), taken when no other branch is. A paths step has at
          most one.
        </p>
      )}
      {groups.map((group, g) => (
        <fieldset key={g} class="condition-group">
          <legend>{g === 0 ? 'When all of these hold' : 'Or when all of these hold'}</legend>
          {group.and.map((condition, c) => {
            const name = `Group ${g + 1}, condition ${c + 1}`;
            return (
              <div key={c} class="condition">
                <ValueWithVariables
                  label={`${name}: value to test`}
                  pickerLabel={`${name} value to test`}
                  value={condition.key}
                  onValue={(text) => setCondition(g, c, { key: text })}
                  variables={variables}
                />
                <select
                  aria-label={`${name}: operator`}
                  value={condition.operator}
                  onChange={(e) => setCondition(g, c, { operator: e.currentTarget.value })}
                >
                  {CONDITION_OPERATORS.map((operator) => (
                    <option key={operator} value={operator}>
                      {OPERATOR_LABELS[operator]}
                    </option>
                  ))}
                </select>
                {needsValue(condition.operator) && (
                  <ValueWithVariables
                    label={`${name}: compared with`}
                    pickerLabel={`${name} compared with`}
                    value={condition.value}
                    onValue={(text) => setCondition(g, c, { value: text })}
                    variables={variables}
                  />
                )}
                <button type="button" class="small" onClick={() => removeCondition(g, c)}>
                  Remove<span class="visually-hidden"> {name}</span>
                </button>
              </div>
            );
          })}
          <button type="button" class="small" onClick={() => addCondition(g)}>
            And…<span class="visually-hidden"> a condition in group {g + 1}</span>
          </button>
        </fieldset>
      ))}
      <div class="inline">
        <button type="button" class="small" onClick={() => setGroups([...groups, { and: [{ ...NEW_CONDITION }] }])}>
          {groups.length === 0 ? 'Add a condition' : 'Or… (another group)'}
        </button>
        <button type="submit" class="primary small" disabled={busy}>
          Save conditions
        </button>
        <button type="button" class="small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
};
