import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { Step } from '../../types';
import { BranchEditor, StepMoves, type TreeContext, variablesFor } from '../flow-tree';
import { type NewStepKind, StepEditor } from '../step-editor';
import { stepLabel, structuralTypeOf, subtreeOf } from '../step-tree';

/** Where Escape is the field's own (a text being typed): it does not close the panel there. */
const isField = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/**
 * The selected step's editor beside the canvas (over it, full width, on a narrow screen): the step
 * editor of a step, paths or loop; the branch editor of a branch. Escape or "Close" closes it.
 */
export const StepPanel = ({ tree, step, onClose }: { tree: TreeContext; step: Step; onClose: () => void }) => {
  const panel = useRef<HTMLElement>(null);
  const type = structuralTypeOf(step);
  // Opened (or another step chosen), the panel takes the keyboard's focus, unless it holds it already.
  useEffect(() => {
    if (!panel.current?.contains(document.activeElement)) panel.current?.focus();
  }, [step.id]);
  const onKeyDown = (event: JSX.TargetedKeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented || isField(event.target)) return;
    event.preventDefault();
    onClose();
  };
  return (
    <aside class="step-panel" aria-label={`Step ${stepLabel(step)}`} tabIndex={-1} ref={panel} onKeyDown={onKeyDown}>
      <div class="step-panel-bar">
        <span class="muted">{type === 'branch' ? 'Branch' : 'Step'} settings</span>
        <button type="button" class="small" onClick={onClose}>
          Close<span class="visually-hidden"> the step panel</span>
        </button>
      </div>
      {type === 'branch' ? (
        <BranchEditor key={step.id} tree={tree} branch={step} />
      ) : (
        <StepEditor
          key={step.id}
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
          {type === 'paths' && (
            <p class="hint">Its branches are on the canvas: select one to rename it or edit its conditions.</p>
          )}
          {type === 'loop' && (
            <div class="loop-body">
              <p class="hint">
                The steps inside the loop run once for each item, and read the item and its index (Insert variable
                offers them); steps after the loop read its results.
              </p>
              <button
                type="button"
                class="small"
                disabled={tree.busy}
                onClick={() => tree.add({ parentStepId: step.id })}
              >
                Add a step at the start<span class="visually-hidden"> of {stepLabel(step)}</span>
              </button>
            </div>
          )}
        </StepEditor>
      )}
    </aside>
  );
};
