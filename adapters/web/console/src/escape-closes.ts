import type { RefObject } from 'preact';
import { useEffect } from 'preact/hooks';

/**
 * While `open`, Escape anywhere on the page closes what the button `toggle` opened (a menu, a
 * list) and gives the focus back to that button.
 */
export const useEscapeCloses = (open: boolean, close: () => void, toggle: RefObject<HTMLButtonElement>) =>
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      close();
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
