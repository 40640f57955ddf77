import { useState } from 'preact/hooks';
import { errorsOf, type FieldErrors } from '../api';
import type { App, BranchConditions, Step } from '../types';
import { FieldError, FormErrors, useId } from '../ui';
import { ConditionsEditor, conditionsSummary } from './branch-conditions';
import { type DraftWrite, isDraftConflict } from './draft';
import { type NewStepKind, StepEditor } from './step-editor';
import {
  childrenOf,
  destinationsOf,
  isFallback,
  loopsAround,
  type Place,
  shiftedPlace,
  stepLabel,
  stepsBefore,
  structuralTypeOf,
  subtreeOf,
} from './step-tree';
import { choicesFor } from './variables';

/** What every level of the editor's tree needs from the editor. */
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
  /** Adds a step (or paths, a loop, a branch) at a place, as `POST /flows/:flowId/steps` takes it. */
  readonly add: (body: { previousStepId?: string; parentStepId?: string; structuralType?: string }) => void;
  readonly move: (step: Step, place: Place) => void;
}

const variablesFor = (tree: TreeContext, step: Step) =>
  choicesFor(
    stepsBefore(tree.steps, step.id).map(tree.sampleOf),
    new Set(loopsAround(tree.steps, step.id).map((s) => s.id)),
  );

/** Up, down, and "move to" any other place a step may go. */
const StepMoves = ({ tree, step, sideways = false }: { tree: TreeContext; step: Step; sideways?: boolean }) => {
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

/** One branch of a paths step: its name, its conditions (or "Otherwise"), and its steps. */
const BranchColumn = ({ tree, branch }: { tree: TreeContext; branch: Step }) => {
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
  const steps = childrenOf(tree.steps, branch.id);
  return (
    <section
      class={`branch${fallback ? ' branch-fallback' : ''}`}
      aria-label={`Branch: ${title}`}
      data-step-id={branch.id}
    >
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
          {conditionsSummary(branch.branchConditions)}{' '}
          <button type="button" class="small" onClick={() => setEditing('conditions')}>
            Edit conditions<span class="visually-hidden"> of {title}</span>
          </button>
        </p>
      )}
      <FieldError messages={errors.branchConditions} />
      <button type="button" class="small" disabled={tree.busy} onClick={() => tree.add({ parentStepId: branch.id })}>
        Add a step at the start<span class="visually-hidden"> of {title}</span>
      </button>
      {steps.length === 0 ? <p class="empty">No steps in this branch.</p> : <StepList tree={tree} steps={steps} />}
    </section>
  );
};

/** A paths step's branches side by side, and a button for another. */
const Branches = ({ tree, paths }: { tree: TreeContext; paths: Step }) => {
  const branches = childrenOf(tree.steps, paths.id);
  // A new branch goes after the conditional ones, before the fallback, as it would be read.
  const lastConditional = [...branches].reverse().find((b) => !isFallback(b));
  return (
    <div class="branches-frame">
      <section class="branches" aria-label={`Branches of ${stepLabel(paths)}`}>
        {branches.map((branch) => (
          <BranchColumn key={branch.id} tree={tree} branch={branch} />
        ))}
      </section>
      <button
        type="button"
        class="small"
        disabled={tree.busy}
        onClick={() =>
          tree.add({
            parentStepId: paths.id,
            previousStepId: lastConditional?.id ?? paths.id,
            structuralType: 'branch',
          })
        }
      >
        Add a branch<span class="visually-hidden"> to {stepLabel(paths)}</span>
      </button>
    </div>
  );
};

/** A loop's steps, in a frame: they run once per item. */
const LoopBody = ({ tree, loop }: { tree: TreeContext; loop: Step }) => {
  const steps = childrenOf(tree.steps, loop.id);
  return (
    <section class="loop-body" aria-label={`Steps inside ${stepLabel(loop)}`}>
      <p class="hint">
        These steps run once for each item, and read the item and its index (Insert variable offers them); steps after
        the loop read its results.
      </p>
      <button type="button" class="small" disabled={tree.busy} onClick={() => tree.add({ parentStepId: loop.id })}>
        Add a step at the start<span class="visually-hidden"> of {stepLabel(loop)}</span>
      </button>
      {steps.length === 0 ? <p class="empty">No steps in this loop.</p> : <StepList tree={tree} steps={steps} />}
    </section>
  );
};

/** The steps of one list (the top level, a branch, a loop), each with what it holds. */
export const StepList = ({ tree, steps }: { tree: TreeContext; steps: Step[] }) => (
  <ol class="steps">
    {steps.map((step) => {
      const type = structuralTypeOf(step);
      return (
        <li key={step.id}>
          <StepEditor
            step={step}
            apps={tree.apps}
            variables={variablesFor(tree, step)}
            publishErrors={tree.publishErrorsFor(step)}
            write={tree.write}
            onSaved={tree.onSaved}
            onDeleted={tree.onDeleted}
            onAdd={(kind: NewStepKind) => tree.add({ previousStepId: step.id, structuralType: kind })}
            inside={subtreeOf(tree.steps, step.id).length - 1}
            moves={step.type === 'action' && <StepMoves tree={tree} step={step} />}
          >
            {type === 'paths' && <Branches tree={tree} paths={step} />}
            {type === 'loop' && <LoopBody tree={tree} loop={step} />}
          </StepEditor>
        </li>
      );
    })}
  </ol>
);
