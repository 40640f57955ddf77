import { useEffect, useState } from 'preact/hooks';

export type ToastKind = 'success' | 'error';

interface Toast {
  readonly id: number;
  readonly message: string;
  readonly kind: ToastKind;
}

/** How long a success stays; an error stays until it is dismissed, so that it can be read. */
const SUCCESS_MS = 6000;

let toasts: readonly Toast[] = [];
let nextId = 0;
const listeners = new Set<(toasts: readonly Toast[]) => void>();
const publish = (next: readonly Toast[]) => {
  toasts = next;
  for (const listener of listeners) listener(toasts);
};

export const dismissToast = (id: number) => publish(toasts.filter((toast) => toast.id !== id));

/** Says briefly what just happened (a flow published, a change refused), wherever the page is. */
export const showToast = (message: string, kind: ToastKind = 'success') => {
  const id = ++nextId;
  // The newest three are enough: older news is out of date.
  publish([...toasts.slice(-2), { id, message, kind }]);
  if (kind === 'success') setTimeout(() => dismissToast(id), SUCCESS_MS);
};

/** What publishing or unpublishing a flow says once done (the page shows why it was not). */
export const statusToast = (active: boolean) => (done: boolean) =>
  done
    ? showToast(active ? 'Flow published.' : 'Flow unpublished.')
    : showToast(active ? 'The flow was not published: see why on the page.' : 'The flow was not unpublished.', 'error');

/**
 * Where the toasts appear: rendered once by the app. The region is always there (empty), so that
 * screen readers announce what is added to it.
 */
export const Toasts = () => {
  const [shown, setShown] = useState(toasts);
  useEffect(() => {
    listeners.add(setShown);
    return () => {
      listeners.delete(setShown);
    };
  }, []);
  return (
    <div class="toasts" aria-live="polite" aria-relevant="additions text">
      {shown.map((toast) => (
        <div key={toast.id} class={`toast toast-${toast.kind}`}>
          <p>{toast.message}</p>
          <button type="button" class="toast-close" aria-label="Dismiss" onClick={() => dismissToast(toast.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
};
