import Panzoom, { type PanzoomObject } from '@panzoom/panzoom';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { TreeContext } from '../flow-tree';
import { FlowGraph, NOT_PANNED } from './flow-graph';

const MIN_SCALE = 0.2;
const MAX_SCALE = 2;
/** What a zoom button adds or takes away: steps of 20 %. */
const ZOOM_STEP = 0.2;

/**
 * The flow's graph on a surface that pans (drag the background, or scroll) and zooms (the buttons,
 * or ctrl/⌘ with the wheel), through Panzoom; "Fit" shows the whole flow.
 */
export const FlowCanvas = ({
  tree,
  selectedId,
  select,
}: {
  tree: TreeContext;
  selectedId: string | null;
  select: (id: string) => void;
}) => {
  const viewport = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const panzoom = useRef<PanzoomObject | null>(null);
  const [scale, setScale] = useState(1);

  useEffect(() => {
    const view = viewport.current;
    const surface = stage.current;
    if (!view || !surface) return;
    const pz = Panzoom(surface, {
      canvas: true,
      excludeClass: NOT_PANNED,
      minScale: MIN_SCALE,
      maxScale: MAX_SCALE,
      cursor: 'grab',
    });
    panzoom.current = pz;
    const changed = (event: Event) => setScale((event as CustomEvent<{ scale: number }>).detail.scale);
    // ctrl/⌘ with the wheel (and a trackpad's pinch, which the browser sends so) zooms; the wheel alone pans.
    const wheel = (event: WheelEvent) => {
      event.preventDefault();
      if (event.ctrlKey || event.metaKey) {
        pz.zoomWithWheel(event);
        return;
      }
      const { x, y } = pz.getPan();
      const at = pz.getScale();
      pz.pan(x - event.deltaX / at, y - event.deltaY / at);
    };
    surface.addEventListener('panzoomchange', changed);
    view.addEventListener('wheel', wheel, { passive: false });
    return () => {
      surface.removeEventListener('panzoomchange', changed);
      view.removeEventListener('wheel', wheel);
      pz.destroy();
      panzoom.current = null;
    };
  }, []);

  const zoomBy = (by: number) => {
    const pz = panzoom.current;
    if (pz) pz.zoom(Math.round((pz.getScale() + by) * 10) / 10);
  };

  /** The whole graph in view: scaled down to fit (never up), and centred. */
  const fit = () => {
    const pz = panzoom.current;
    const view = viewport.current;
    const surface = stage.current;
    if (!pz || !view || !surface) return;
    view.scrollTo(0, 0);
    const [width, height] = [surface.offsetWidth, surface.offsetHeight];
    const to = Math.max(MIN_SCALE, Math.min(1, view.clientWidth / width, view.clientHeight / height));
    pz.zoom(to, { animate: false });
    // Panzoom scales about the surface's centre, then moves it by the pan times the scale.
    setTimeout(() =>
      pz.pan((view.clientWidth - width) / 2 / to, (view.clientHeight - height) / 2 / to, { animate: false }),
    );
  };

  return (
    <section class="flow-canvas" aria-label="Flow canvas">
      <div class="canvas-toolbar" role="toolbar" aria-label="Zoom">
        <button type="button" class="small" onClick={() => zoomBy(-ZOOM_STEP)} disabled={scale <= MIN_SCALE + 0.01}>
          −<span class="visually-hidden"> Zoom out</span>
        </button>
        <output class="canvas-zoom" aria-live="polite" aria-label="Zoom level">
          {Math.round(scale * 100)}%
        </output>
        <button type="button" class="small" onClick={() => zoomBy(ZOOM_STEP)} disabled={scale >= MAX_SCALE - 0.01}>
          +<span class="visually-hidden"> Zoom in</span>
        </button>
        <button type="button" class="small" onClick={fit}>
          Fit<span class="visually-hidden"> the flow in view</span>
        </button>
        <span class="hint canvas-hint">Drag the background or scroll to move around; ctrl/⌘ + wheel zooms.</span>
      </div>
      <div class="canvas-viewport" ref={viewport}>
        <div class="canvas-stage" ref={stage}>
          <FlowGraph tree={tree} selectedId={selectedId} select={select} />
        </div>
      </div>
    </section>
  );
};
