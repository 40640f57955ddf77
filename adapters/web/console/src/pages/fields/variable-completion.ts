import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { isolateHistory } from '@codemirror/commands';
import type { EditorView } from '@codemirror/view';
import type { ChoiceGroup } from '../variables';

/**
 * Typing `{{` offers the picker's variables by their labels (`1. Webhook › body › name`); what
 * follows the braces filters them. Choosing one replaces the braces (and a `}}` right after the
 * cursor) with the variable's placeholder, which then shows as a chip.
 */
export const variableCompletion =
  (groups: () => readonly ChoiceGroup[]) =>
  (context: CompletionContext): CompletionResult | null => {
    const typed = context.matchBefore(/\{\{[^{}]*$/);
    if (!typed) return null;
    const options: Completion[] = groups().flatMap((group) =>
      group.choices.map((choice) => ({
        label: choice.label,
        detail: choice.preview,
        apply: (view: EditorView, _completion: Completion, _from: number, to: number) => {
          const closing = view.state.sliceDoc(to, to + 2) === '}}' ? 2 : 0;
          view.dispatch({
            changes: { from: typed.from, to: to + closing, insert: choice.text },
            selection: { anchor: typed.from + choice.text.length },
            userEvent: 'input.complete',
            annotations: isolateHistory.of('full'),
          });
        },
      })),
    );
    return { from: typed.from + 2, options, validFor: /^[^{}]*$/ };
  };
