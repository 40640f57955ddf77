import { isolateHistory } from '@codemirror/commands';
import {
  Decoration,
  type DecorationSet,
  EditorView,
  MatchDecorator,
  ViewPlugin,
  type ViewUpdate,
  WidgetType,
} from '@codemirror/view';
import type { ChoiceGroup } from '../variables';
import { type ChipInfo, describeVariable, PLACEHOLDER, segmentsOf } from './template';

/** Told which chip the pointer is over or the cursor stands at (null when none), to show its sample. */
export type ChipFocus = (chip: ChipInfo | null, by: 'pointer' | 'cursor') => void;

/**
 * A variable drawn as a chip: its label, its sample as the tooltip, and an × that removes it. The
 * document keeps the placeholder's text, so what is stored never changes.
 */
class ChipWidget extends WidgetType {
  constructor(
    readonly text: string,
    readonly info: ChipInfo,
    readonly focus: ChipFocus,
  ) {
    super();
  }

  override eq(other: ChipWidget) {
    return other.text === this.text && other.info.label === this.info.label && other.info.sample === this.info.sample;
  }

  toDOM(view: EditorView) {
    const chip = document.createElement('span');
    chip.className = this.info.known ? 'cm-chip' : 'cm-chip cm-chip-unknown';
    chip.dataset.variable = this.text;
    chip.title = `${this.info.label}\nSample: ${this.info.sample}`;
    const label = chip.appendChild(document.createElement('span'));
    label.className = 'cm-chip-label';
    label.textContent = this.info.label;
    const remove = chip.appendChild(document.createElement('button'));
    remove.type = 'button';
    remove.className = 'cm-chip-remove';
    // Inside the text the keyboard removes a chip with Backspace or Delete; the × is for the pointer.
    remove.tabIndex = -1;
    remove.setAttribute('aria-label', `Remove ${this.info.label}`);
    remove.textContent = '×';
    remove.addEventListener('mousedown', (event) => event.preventDefault());
    remove.addEventListener('click', () => {
      const from = view.posAtDOM(chip);
      if (view.state.sliceDoc(from, from + this.text.length) !== this.text) return;
      view.dispatch({
        changes: { from, to: from + this.text.length },
        userEvent: 'delete',
        // Undone on its own, not with the typing before it.
        annotations: isolateHistory.of('full'),
      });
      this.focus(null, 'pointer');
      view.focus();
    });
    chip.addEventListener('mouseenter', () => this.focus(this.info, 'pointer'));
    chip.addEventListener('mouseleave', () => this.focus(null, 'pointer'));
    return chip;
  }

  /** The editor handles a click on the label (the cursor goes beside the chip), not one on the ×. */
  override ignoreEvent(event: Event) {
    return event.target instanceof Element && event.target.closest('.cm-chip-remove') !== null;
  }
}

/** The chip the cursor stands at: the one just before it first, as Backspace would remove. */
const chipAtCursor = (update: ViewUpdate | EditorView, chips: DecorationSet): string | null => {
  const { state } = update;
  const { main } = state.selection;
  let found: { from: number; to: number } | null = null;
  chips.between(main.from, main.to, (from, to) => {
    if (!found || to === main.head) found = { from, to };
  });
  const at = found as { from: number; to: number } | null;
  return at ? state.sliceDoc(at.from, at.to) : null;
};

/** Variables shown as chips, described from the picker's groups; atomic for the cursor and deletion. */
export const chips = (groups: readonly ChoiceGroup[], focus: ChipFocus) => {
  const describe = (text: string): ChipInfo | null => {
    const [variable] = segmentsOf(text);
    return variable?.kind === 'variable' ? describeVariable(variable, groups) : null;
  };
  const decorator = new MatchDecorator({
    regexp: new RegExp(PLACEHOLDER.source, 'g'),
    decoration: (match) => {
      const info = describe(match[0]);
      return info ? Decoration.replace({ widget: new ChipWidget(match[0], info, focus) }) : null;
    },
  });
  const plugin = ViewPlugin.fromClass(
    class {
      chips: DecorationSet;
      constructor(view: EditorView) {
        this.chips = decorator.createDeco(view);
      }
      update(update: ViewUpdate) {
        this.chips = decorator.updateDeco(update, this.chips);
        // A chip under the pointer may be gone (removed, the text replaced) without a mouseleave.
        if (update.docChanged) focus(null, 'pointer');
        if (update.selectionSet || update.docChanged || update.focusChanged) {
          const text = update.view.hasFocus ? chipAtCursor(update, this.chips) : null;
          focus(text ? describe(text) : null, 'cursor');
        }
      }
    },
    {
      decorations: (instance) => instance.chips,
      provide: (self) => EditorView.atomicRanges.of((view) => view.plugin(self)?.chips ?? Decoration.none),
    },
  );
  return plugin;
};
