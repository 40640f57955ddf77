import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { AppIcon } from '../../app-picker';
import type { App, Step } from '../../types';
import { Badge } from '../../ui';
import { conditionsSummary } from '../branch-conditions';
import { type AddBody, type TreeContext, variablesFor } from '../flow-tree';
import { childrenOf, isFallback, shiftedPlace, stepLabel, structuralTypeOf } from '../step-tree';
import { placeForDrop } from './reorder';

/**
 * The flow drawn as a graph, laid out as nested flex boxes: each list (the top level, a branch, a
 * loop) a column of nodes joined by edges, a paths step's branches side by side, a loop's steps in
 * a frame. Every edge has a "+" that adds a step there; a node selects its step; a node dragged
 * onto another of its list takes that one's place.
 */

/** Marks what panning must leave alone: pressing it clicks or drags it instead. */
export const NOT_PANNED = 'canvas-exclude';

interface GraphContext {
  readonly tree: TreeContext;
  readonly selectedId: string | null;
  readonly select: (id: string) => void;
  readonly drag: DragReorder;
}

/** How far (in screen pixels) a node must travel before a press becomes a drag. */
const DRAG_THRESHOLD = 6;

interface DragReorder {
  readonly draggedId: string | null;
  readonly overId: string | null;
  readonly start: (event: JSX.TargetedPointerEvent<HTMLElement>, step: Step) => void;
  /** True once after a drag ended, so the click that ends it does not select. */
  readonly consumeClick: () => boolean;
}

const nodeUnder = (x: number, y: number) =>
  document.elementFromPoint(x, y)?.closest<HTMLElement>('.canvas-node[data-step-id]') ?? null;

/** Drag a node onto a sibling to move it there (`POST /steps/:id/move`), with the pointer or a finger. */
const useDragReorder = (tree: TreeContext): DragReorder => {
  const [draggedId, setDraggedId] = useState<string | null>(null);
  const [overId, setOverId] = useState<string | null>(null);
  const dragged = useRef(false);
  const stop = useRef<() => void>(() => undefined);
  useEffect(() => () => stop.current(), []);

  const start = (event: JSX.TargetedPointerEvent<HTMLElement>, step: Step) => {
    if (event.button !== 0 || step.type === 'trigger' || tree.busy) return;
    const origin = { x: event.clientX, y: event.clientY };
    let moving = false;
    const move = (e: PointerEvent) => {
      if (!moving && Math.hypot(e.clientX - origin.x, e.clientY - origin.y) < DRAG_THRESHOLD) return;
      moving = true;
      setDraggedId(step.id);
      setOverId(nodeUnder(e.clientX, e.clientY)?.dataset.stepId ?? null);
    };
    const up = (e: PointerEvent) => {
      stop.current();
      if (!moving) return;
      // The click this release may send (on the node it started from) is the drag's, not a selection.
      dragged.current = true;
      setTimeout(() => {
        dragged.current = false;
      });
      const target = tree.steps.find((s) => s.id === nodeUnder(e.clientX, e.clientY)?.dataset.stepId);
      const place = target ? placeForDrop(tree.steps, step, target) : null;
      if (place) tree.move(step, place);
    };
    stop.current = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', stop.current);
      setDraggedId(null);
      setOverId(null);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', stop.current);
  };
  const consumeClick = () => {
    const was = dragged.current;
    dragged.current = false;
    return was;
  };
  return { draggedId, overId, start, consumeClick };
};

/** What a node says: what the step does, and what it is still missing. */
const nodeText = (ctx: GraphContext, step: Step): { title: string; detail: string; app: App | null } => {
  const type = structuralTypeOf(step);
  if (type === 'branch') {
    return {
      title: step.name ?? 'Branch',
      detail: conditionsSummary(step.branchConditions, variablesFor(ctx.tree, step)),
      app: null,
    };
  }
  if (type === 'paths') {
    const count = childrenOf(ctx.tree.steps, step.id).length;
    return { title: step.name ?? 'Paths', detail: `${count} branch${count === 1 ? '' : 'es'}`, app: null };
  }
  if (type === 'loop')
    return { title: step.name ?? 'Loop over items', detail: 'Runs its steps for each item', app: null };
  const app = ctx.tree.apps.find((a) => a.key === step.appKey) ?? null;
  if (!app) return { title: step.type === 'trigger' ? 'Trigger' : 'Action', detail: 'Choose an app', app };
  const missing = `Choose ${step.type === 'trigger' ? 'a trigger' : 'an action'}`;
  return { title: app.name, detail: step.name ?? step.key ?? missing, app };
};

const SYMBOLS = { paths: '⇉', loop: '↻', branch: '↳' } as const;

const StepNode = ({ ctx, step }: { ctx: GraphContext; step: Step }) => {
  const type = structuralTypeOf(step);
  const { title, detail, app } = nodeText(ctx, step);
  const selected = ctx.selectedId === step.id;
  const movable = step.type === 'action';
  const sideways = type === 'branch';
  // Alt with an arrow moves the step among its siblings, as the panel's ↑ ↓ buttons do.
  const onKeyDown = (event: JSX.TargetedKeyboardEvent<HTMLButtonElement>) => {
    if (!event.altKey || !movable) return;
    const by = { ArrowUp: -1, ArrowLeft: -1, ArrowDown: 1, ArrowRight: 1 }[event.key] as -1 | 1 | undefined;
    const place = by && shiftedPlace(ctx.tree.steps, step, by);
    if (!by) return;
    event.preventDefault();
    if (place) ctx.tree.move(step, place);
  };
  const classes = [
    'canvas-node',
    NOT_PANNED,
    `node-${type}`,
    `node-${step.status}`,
    selected && 'is-selected',
    ctx.drag.draggedId === step.id && 'is-dragged',
    ctx.drag.overId === step.id && ctx.drag.draggedId !== step.id && 'is-drop-target',
    movable && 'is-movable',
  ];
  return (
    <div
      class={classes.filter(Boolean).join(' ')}
      data-step-id={step.id}
      data-position={step.position}
      onPointerDown={movable ? (event) => ctx.drag.start(event, step) : undefined}
    >
      <button
        type="button"
        class="node-button"
        aria-current={selected ? 'true' : undefined}
        aria-describedby={`node-${step.id}-detail`}
        title={movable ? `Drag to reorder; Alt+${sideways ? '←/→' : '↑/↓'} moves it` : undefined}
        onClick={() => {
          if (!ctx.drag.consumeClick()) ctx.select(step.id);
        }}
        onKeyDown={onKeyDown}
      >
        {app ? (
          <AppIcon app={app} size={28} />
        ) : (
          <span class="node-symbol" aria-hidden="true">
            {type === 'single' ? '?' : SYMBOLS[type]}
          </span>
        )}
        <span class="node-text">
          <span class="node-title">
            {type === 'branch' ? '' : `${step.position}. `}
            {title}
          </span>
          <span class="node-detail" id={`node-${step.id}-detail`}>
            {detail}
            {step.status === 'incomplete' && type !== 'branch' && <Badge status={step.status} />}
          </span>
        </span>
      </button>
    </div>
  );
};

/** An edge: a line down to what follows, with a "+" that adds a step, paths or a loop there. */
const Edge = ({ ctx, where, body }: { ctx: GraphContext; where: string; body: AddBody }) => {
  const [open, setOpen] = useState(false);
  const add = (structuralType?: 'paths' | 'loop') => {
    setOpen(false);
    ctx.tree.add({ ...body, ...(structuralType && { structuralType }) });
  };
  const closeOnEscape = (event: JSX.TargetedKeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    setOpen(false);
  };
  return (
    <div class="flow-edge">
      <svg class="edge-line" aria-hidden="true" width="12" height="48" viewBox="0 0 12 48">
        <line x1="6" y1="0" x2="6" y2="44" />
        <path d="M1 39 L6 47 L11 39" />
      </svg>
      <button
        type="button"
        class={`edge-add ${NOT_PANNED}`}
        aria-expanded={open}
        disabled={ctx.tree.busy}
        onClick={() => setOpen(!open)}
      >
        +<span class="visually-hidden"> Add {where}</span>
      </button>
      {open && (
        <fieldset class={`edge-menu ${NOT_PANNED}`} onKeyDown={closeOnEscape}>
          <legend class="visually-hidden">Add {where}</legend>
          <button type="button" class="small" onClick={() => add()}>
            A step
          </button>
          <button type="button" class="small" onClick={() => add('paths')}>
            Paths
          </button>
          <button type="button" class="small" onClick={() => add('loop')}>
            A loop
          </button>
          <button type="button" class="small link" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </fieldset>
      )}
    </div>
  );
};

/** One branch of a paths step: its node (name and conditions), then its steps. */
const BranchLane = ({ ctx, branch }: { ctx: GraphContext; branch: Step }) => {
  const steps = childrenOf(ctx.tree.steps, branch.id);
  const title = branch.name ?? 'Branch';
  return (
    <section
      class={`branch-lane${isFallback(branch) ? ' branch-fallback' : ''}`}
      aria-label={`Branch: ${title}`}
      data-step-id={branch.id}
    >
      <StepNode ctx={ctx} step={branch} />
      <Edge ctx={ctx} where={`at the start of ${title}`} body={{ parentStepId: branch.id }} />
      {steps.length === 0 ? <p class="empty">No steps in this branch.</p> : <StepColumn ctx={ctx} steps={steps} />}
      <div class="lane-tail" aria-hidden="true" />
    </section>
  );
};

/** A paths step's branches side by side, and a way to add another. */
const PathsBlock = ({ ctx, paths }: { ctx: GraphContext; paths: Step }) => {
  const branches = childrenOf(ctx.tree.steps, paths.id);
  // A new branch goes after the conditional ones, before the fallback, as it would be read.
  const lastConditional = [...branches].reverse().find((b) => !isFallback(b));
  return (
    <div class="paths-block">
      <div class="edge-stub" aria-hidden="true" />
      <section class="branch-lanes" aria-label={`Branches of ${stepLabel(paths)}`}>
        {branches.map((branch) => (
          <BranchLane key={branch.id} ctx={ctx} branch={branch} />
        ))}
      </section>
      <div class="edge-stub" aria-hidden="true" />
      <button
        type="button"
        class={`small add-branch ${NOT_PANNED}`}
        disabled={ctx.tree.busy}
        onClick={() =>
          ctx.tree.add({
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

/** A loop's steps, in a frame: they run once for each item. */
const LoopFrame = ({ ctx, loop }: { ctx: GraphContext; loop: Step }) => {
  const steps = childrenOf(ctx.tree.steps, loop.id);
  return (
    <section class="loop-frame" aria-label={`Steps inside ${stepLabel(loop)}`}>
      <p class="loop-frame-label">For each item</p>
      <Edge ctx={ctx} where={`at the start of ${stepLabel(loop)}`} body={{ parentStepId: loop.id }} />
      {steps.length === 0 ? <p class="empty">No steps in this loop.</p> : <StepColumn ctx={ctx} steps={steps} />}
    </section>
  );
};

/** The steps of one list, each with what it holds and the edge below it. */
const StepColumn = ({ ctx, steps }: { ctx: GraphContext; steps: Step[] }) => (
  <ol class="flow-column">
    {steps.map((step) => {
      const type = structuralTypeOf(step);
      return (
        <li key={step.id} class="flow-item">
          <StepNode ctx={ctx} step={step} />
          {type === 'paths' && <PathsBlock ctx={ctx} paths={step} />}
          {type === 'loop' && <LoopFrame ctx={ctx} loop={step} />}
          <Edge ctx={ctx} where={`after ${stepLabel(step)}`} body={{ previousStepId: step.id }} />
        </li>
      );
    })}
  </ol>
);

export const FlowGraph = ({
  tree,
  selectedId,
  select,
}: {
  tree: TreeContext;
  selectedId: string | null;
  select: (id: string) => void;
}) => {
  const drag = useDragReorder(tree);
  const ctx: GraphContext = { tree, selectedId, select, drag };
  return (
    <div class={`flow-graph${drag.draggedId ? ' is-dragging' : ''}`}>
      <StepColumn ctx={ctx} steps={childrenOf(tree.steps, null)} />
      <p class="flow-end" aria-hidden="true">
        End
      </p>
    </div>
  );
};
