import { useState } from 'preact/hooks';
import { errorsOf, type FieldErrors } from '../api';
import type { App, BranchConditions, Step } from '../types';
import { FieldError, FormErrors, useId } from '../ui';
import { ConditionsEditor, conditionsSummary } from './branch-conditions';
import { type DraftWrite, isDraftConflict } from './draft';
import {
  destinationsOf,
  isFallback,
  loopsAround,
  type Place,
  shiftedPlace,
  stepLabel,
  stepsBefore,
  subtreeOf,
} from './step-tree';
import { choicesFor } from './variables';

/** Where a new step goes and what it is, as `POST /flows/:flowId/steps` takes it. */
export interface AddBody {
  readonly previousStepId?: string;
  readonly parentStepId?: string;
  readonly structuralType?: string;
}

/** What the canvas and its side panel need from the editor. */
export interface TreeContext {
  readonly steps: Step[];
  readonly apps: App[];
  readonly busy: boolean;
  readonly write: DraftWrite;
  /** The step with its latest sample output, for the variable pickers. */
  readonly sampleOf: (step: Step) => Step;
  readonly publishErrorsFor: (step: Step) => string[] | undefined;
  readonly onSaved: (step: Step) => void;
  readonly onDeleted: () => void;
  /**
   * Adds a step (or paths, a loop, a branch) at a place, as `POST /flows/:flowId/steps` takes it,
   * and selects it.
   */
  readonly add: (body: AddBody) => void;
  readonly move: (step: Step, place: Place) => void;
}

export const variablesFor = (tree: TreeContext, step: Step) =>
  choicesFor(
    stepsBefore(tree.steps, step.id).map(tree.sampleOf),
    new Set(loopsAround(tree.steps, step.id).map((s) => s.id)),
  );

/** Up, down, and "move to" any other place a step may go. */
export const StepMoves = ({ tree, step, sideways = false }: { tree: TreeContext; step: Step; sideways?: boolean }) => {
  const [to, setTo] = useState('');
  const menuId = useId('move-to');
  const up = shiftedPlace(tree.steps, step, -1);
  const down = shiftedPlace(tree.steps, step, 1);
  const destinations = destinationsOf(tree.steps, step);
  const name = stepLabel(step);
  return (
    <span class="step-moves">
      <button type="button" class="small" disabled={tree.busy || !up} onClick={() => up && tree.move(step, up)}>
        {sideways ? '←' : '↑'}
        <span class="visually-hidden"> Move {name} up</span>
      </button>
      <button type="button" class="small" disabled={tree.busy || !down} onClick={() => down && tree.move(step, down)}>
        {sideways ? '→' : '↓'}
        <span class="visually-hidden"> Move {name} down</span>
      </button>
      {destinations.length > 0 && (
        <>
          <label class="visually-hidden" for={menuId}>
            Move {name} to
          </label>
          <select
            id={menuId}
            value={to}
            disabled={tree.busy}
            onChange={(e) => {
              const picked = destinations[Number(e.currentTarget.value)];
              setTo('');
              if (picked) tree.move(step, picked.place);
            }}
          >
            <option value="">Move to…</option>
            {destinations.map((d, index) => (
              <option key={d.label} value={String(index)}>
                {d.label}
              </option>
            ))}
          </select>
        </>
      )}
    </span>
  );
};

/**
 * One branch of a paths step, as the canvas's side panel edits it: its name, its conditions (or
 * "Otherwise"), its place among the branches, and a step at its start. Its steps are on the canvas.
 */
export const BranchEditor = ({ tree, branch }: { tree: TreeContext; branch: Step }) => {
  const [editing, setEditing] = useState<'name' | 'conditions' | null>(null);
  const [name, setName] = useState(branch.name ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saving, setSaving] = useState(false);
  const nameId = useId('branch-name');
  const title = branch.name ?? 'Branch';
  const fallback = isFallback(branch);
  const save = async (body: Record<string, unknown>) => {
    setSaving(true);
    setErrors({});
    try {
      const saved = await tree.write<Step>('PATCH', `/steps/${branch.id}`, body);
      tree.onSaved(saved.data);
      setEditing(null);
    } catch (error) {
      // A stale revision is the editor's to say, once, with the way out (reload).
      if (!isDraftConflict(error)) setErrors(errorsOf(error));
    } finally {
      setSaving(false);
    }
  };
  const remove = async () => {
    const inside = subtreeOf(tree.steps, branch.id).length - 1;
    const what = inside > 0 ? ` and the ${inside} step${inside === 1 ? '' : 's'} in it` : '';
    if (!confirm(`Delete the branch "${title}"${what}?`)) return;
    setErrors({});
    try {
      await tree.write('DELETE', `/steps/${branch.id}`);
      tree.onDeleted();
    } catch (error) {
      if (!isDraftConflict(error)) setErrors(errorsOf(error));
    }
  };
  return (
    <div class={`branch-editor${fallback ? ' branch-fallback' : ''}`} data-step-id={branch.id}>
      <header class="branch-header">
        <h3>
          {title}
          {fallback && <span class="tag">Otherwise</span>}
        </h3>
        <span class="inline">
          <button
            type="button"
            class="small"
            onClick={() => {
              setName(branch.name ?? '');
              setEditing('name');
            }}
          >
            Rename<span class="visually-hidden"> the branch {title}</span>
          </button>
          <StepMoves tree={tree} step={branch} sideways />
          <button type="button" class="small danger" disabled={tree.busy} onClick={() => void remove()}>
            Delete<span class="visually-hidden"> the branch {title}</span>
          </button>
        </span>
      </header>
      <FieldError messages={tree.publishErrorsFor(branch)} />
      <FormErrors errors={errors} fields={['name', 'branchConditions']} />
      {editing === 'name' && (
        <form
          class="inline"
          onSubmit={(e) => {
            e.preventDefault();
            void save({ name });
          }}
        >
          <label for={nameId}>Branch name</label>
          <input id={nameId} value={name} onInput={(e) => setName(e.currentTarget.value)} required />
          <button type="submit" class="primary small" disabled={saving}>
            Save name
          </button>
          <button type="button" class="small" onClick={() => setEditing(null)}>
            Cancel
          </button>
          <FieldError messages={errors.name} />
        </form>
      )}
      {editing === 'conditions' ? (
        <ConditionsEditor
          branchName={title}
          initial={branch.branchConditions ?? []}
          variables={variablesFor(tree, branch)}
          busy={saving}
          onSave={(conditions: BranchConditions) => void save({ branchConditions: conditions })}
          onCancel={() => setEditing(null)}
        />
      ) : (
        <p class="conditions-summary">
          {conditionsSummary(branch.branchConditions, variablesFor(tree, branch))}{' '}
          <button type="button" class="small" onClick={() => setEditing('conditions')}>
            Edit conditions<span class="visually-hidden"> of {title}</span>
          </button>
        </p>
      )}
      <FieldError messages={errors.branchConditions} />
      <button type="button" class="small" disabled={tree.busy} onClick={() => tree.add({ parentStepId: branch.id })}>
        Add a step at the start<span class="visually-hidden"> of {title}</span>
      </button>
    </div>
  );
};
