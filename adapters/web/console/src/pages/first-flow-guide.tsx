import { useState } from 'preact/hooks';
import type { Flow, Step } from '../types';
import { useId } from '../ui';
import type { TreeContext } from './flow-tree';
import { childrenOf, structuralTypeOf } from './step-tree';

/** Set once the user hides the guide: it stays hidden for every flow from then on. */
const HIDDEN_KEY = 'conveyor.firstFlowGuide.hidden';

/** The flow editor's Publish button (flow-editor.tsx), which the last item brings into focus. */
export const PUBLISH_BUTTON_ID = 'flow-publish';

const readHidden = () => {
  try {
    return localStorage.getItem(HIDDEN_KEY) === 'true';
  } catch {
    return false;
  }
};

const rememberHidden = () => {
  try {
    localStorage.setItem(HIDDEN_KEY, 'true');
  } catch {
    // Storage refused (a private window): hidden for this page only.
  }
};

const chosen = (step: Step) => step.appKey !== null && step.key !== null;

/**
 * Whether a step's test succeeded: its own answer to a test in this page, or the sample output
 * the editor read for the steps others use (which is what survives a reload).
 */
const tested = (tree: TreeContext, step: Step) =>
  step.lastExecutionStep?.status === 'success' || tree.sampleOf(step).lastExecutionStep?.status === 'success';

interface Item {
  readonly title: string;
  readonly done: boolean;
  readonly todo: string;
  readonly action: string;
  readonly go: () => void;
}

const itemsOf = (tree: TreeContext, select: (id: string) => void): Item[] => {
  const trigger = tree.steps.find((s) => s.type === 'trigger');
  const actions = tree.steps.filter((s) => s.type === 'action' && structuralTypeOf(s) === 'single');
  const chosenActions = actions.filter(chosen);
  const selectOr = (step: Step | undefined, otherwise: () => void) => () => (step ? select(step.id) : otherwise());
  const openTrigger = () => {
    if (trigger) select(trigger.id);
  };
  // Without any action left (all deleted), one is added after the last top-level step.
  const addAction = () => {
    const last = childrenOf(tree.steps, null).at(-1);
    if (last) tree.add({ previousStepId: last.id, structuralType: 'single' });
  };
  return [
    {
      title: 'Choose a trigger',
      done: trigger !== undefined && chosen(trigger),
      todo: 'Pick the app and the event that start the flow: a webhook call, a schedule, a form…',
      action: 'Choose the trigger',
      go: openTrigger,
    },
    {
      title: 'Test the trigger',
      done: trigger !== undefined && tested(tree, trigger),
      todo: 'In the trigger, use “Listen for a test event” (or “Test step”) and send it an event: the next steps use its output.',
      action: 'Test the trigger',
      go: openTrigger,
    },
    {
      title: 'Add an action',
      done: chosenActions.length > 0,
      todo: 'Pick the app and the action the flow runs, then fill in its settings and save.',
      action: 'Choose an action',
      go: selectOr(
        actions.find((s) => !chosen(s)),
        selectOr(actions[0], addAction),
      ),
    },
    {
      title: 'Test the action',
      done: chosenActions.some((s) => tested(tree, s)),
      todo: 'Use “Test step” in the action: it runs with the trigger’s test event and shows what it did.',
      action: 'Test the action',
      go: selectOr(chosenActions[0], selectOr(actions[0], addAction)),
    },
    {
      title: 'Publish',
      done: false,
      todo: 'Publish the flow: from then on, every event of the trigger runs it.',
      action: 'Go to Publish',
      go: () => {
        const publish = document.getElementById(PUBLISH_BUTTON_ID);
        publish?.scrollIntoView({ block: 'nearest' });
        publish?.focus();
      },
    },
  ];
};

/**
 * "Your first flow": a checklist above the canvas of a flow never published, each item ticked
 * from the flow as it is (never by hand), with a button to where the item is done. It goes once
 * the flow is published, or for good when hidden.
 */
export const FirstFlowGuide = ({
  flow,
  tree,
  select,
}: {
  flow: Flow;
  tree: TreeContext;
  select: (id: string) => void;
}) => {
  const [hidden, setHidden] = useState(readHidden);
  const headingId = useId('first-flow');
  if (hidden || flow.publishedVersion !== null || flow.publishedAt !== null) return null;
  const items = itemsOf(tree, select);
  const done = items.filter((item) => item.done).length;
  const next = items.find((item) => !item.done);
  const hide = () => {
    rememberHidden();
    setHidden(true);
    // The guide's button goes with it: the keyboard's focus goes on to the canvas.
    requestAnimationFrame(() => document.querySelector<HTMLElement>('.canvas-node button')?.focus());
  };
  return (
    <section class="first-flow-guide" aria-labelledby={headingId}>
      <div class="first-flow-guide-bar">
        <h2 id={headingId}>Your first flow</h2>
        <p class="first-flow-progress" aria-live="polite">
          {done} of {items.length} done
        </p>
        <button type="button" class="small" onClick={hide}>
          Hide guide
        </button>
      </div>
      <progress class="first-flow-meter" max={items.length} value={done} aria-hidden="true" />
      <ol class="first-flow-items">
        {items.map((item, index) => (
          <li key={item.title} class={`first-flow-item${item.done ? ' done' : ''}${item === next ? ' next' : ''}`}>
            <span class="first-flow-mark" aria-hidden="true">
              {item.done ? '✓' : index + 1}
            </span>
            <div class="first-flow-text">
              <p class="first-flow-title">
                <span class="visually-hidden">{item.done ? 'Done: ' : 'Not done: '}</span>
                {item.title}
              </p>
              {!item.done && (
                <>
                  <p class="hint">{item.todo}</p>
                  <button type="button" class={`small${item === next ? ' primary' : ''}`} onClick={item.go}>
                    {item.action}
                  </button>
                </>
              )}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
};
