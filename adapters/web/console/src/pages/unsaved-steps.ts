import { useEffect } from 'preact/hooks';

/**
 * Steps whose editor holds edits not yet saved. The side panel shows one step at a time, so
 * choosing another (or closing it, or leaving the page) would drop them without a word: it asks first.
 */
const unsaved = new Set<string>();

export const markUnsaved = (stepId: string, dirty: boolean) => {
  if (dirty) unsaved.add(stepId);
  else unsaved.delete(stepId);
};

/** Whether the edits of `stepId` may go: none, or the user says so. */
export const mayLeaveStep = (stepId: string | null, label: string) =>
  stepId === null ||
  !unsaved.has(stepId) ||
  confirm(`The step “${label}” has changes that are not saved. Leave it and lose them?`);

/** The browser's own question before a reload or another address drops unsaved edits. */
const onBeforeUnload = (event: BeforeUnloadEvent) => {
  if (unsaved.size === 0) return;
  event.preventDefault();
  // Older browsers ask only when a value is returned.
  event.returnValue = '';
};

/** Asks the browser's question while the page that holds step editors is open. */
export const useUnsavedStepsGuard = () =>
  useEffect(() => {
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
