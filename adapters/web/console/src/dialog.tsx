import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { useId } from './ui';

/**
 * A modal dialog: the browser's own `<dialog>` opened with `showModal()`, which makes the rest of
 * the page inert (Tab stays inside) and closes on Escape. Closing, by Escape, the close button or
 * the parent unmounting it, gives the focus back to what had it before the dialog opened.
 */
export const Dialog = ({
  title,
  onClose,
  children,
}: {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
}) => {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId('dialog-title');
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const dialog = ref.current;
    dialog?.showModal();
    return () => {
      dialog?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class="dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        // Escape: the parent decides, by unmounting the dialog.
        event.preventDefault();
        onClose();
      }}
    >
      <header class="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      {children}
    </dialog>
  );
};
