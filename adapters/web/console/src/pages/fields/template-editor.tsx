import { autocompletion } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, isolateHistory } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { sql } from '@codemirror/lang-sql';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { linter } from '@codemirror/lint';
import { Annotation, Compartment, EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, placeholder as placeholderText } from '@codemirror/view';
import { useEffect, useImperativeHandle, useRef, useState } from 'preact/hooks';
import type { ChoiceGroup } from '../variables';
import { type ChipFocus, chips } from './chips';
import { type EditorKind, isMultiLine } from './editor-kind';
import { type JsonProblem, jsonProblem, looksLikeJson } from './json-check';
import type { ChipInfo } from './template';
import { variableCompletion } from './variable-completion';

/** What a field's "Insert variable" button (outside the editor) asks of it. */
export interface TemplateEditorHandle {
  /** Puts the text where the cursor was (over the selection) and focuses the editor. */
  insert(text: string): void;
  focus(): void;
}

export interface TemplateEditorProps {
  /** The editable element's id. */
  readonly id: string;
  /**
   * Its name: the id of its label element (a label's `for` cannot name an editable div), or the
   * text itself when it has no visible label of its own (a row of a list).
   */
  readonly label: { readonly by: string } | string;
  readonly describedBy?: string | undefined;
  readonly invalid?: boolean;
  readonly value: string;
  readonly onValue: (text: string) => void;
  /** Called with the text when the editor loses the focus (a JSON field then stores its value). */
  readonly onBlur?: (text: string) => void;
  /** The variables its chips and `{{` read; null when the field takes none. */
  readonly variables: readonly ChoiceGroup[] | null;
  readonly kind: Exclude<EditorKind, 'input'>;
  /** For `code`: the argument's language (`javascript`, `sql`). */
  readonly language?: string | undefined;
  readonly placeholder?: string | undefined;
  readonly handle?: preact.Ref<TemplateEditorHandle>;
}

/** Changes that come from the field's value (a reload, a restored version), not from typing. */
const fromValue = Annotation.define<boolean>();

const languageOf = (kind: TemplateEditorProps['kind'], language: string | undefined, text: string): Extension => {
  if (kind === 'json' || (kind === 'body' && looksLikeJson(text))) return json();
  if (kind !== 'code') return [];
  if (language === 'javascript' || language === 'typescript') return javascript();
  if (language === 'sql') return sql();
  return [];
};

const checksJson = (kind: TemplateEditorProps['kind'], text: string) =>
  kind === 'json' || (kind === 'body' && looksLikeJson(text));

/** Chips change with the samples; they are redrawn only when what they show changes. */
const signatureOf = (variables: readonly ChoiceGroup[] | null) =>
  variables === null
    ? ''
    : variables
        .map((g) => `${g.title}|${g.step?.id ?? ''}|${g.choices.map((c) => `${c.text}=${c.sample}`).join(',')}`)
        .join('\n');

/**
 * A text field in which variables show as chips (CodeMirror 6). On one line it stands in for an
 * input (Enter submits the form, pasted lines are joined); on several it is an editor for prose,
 * bodies, JSON and code, with line numbers, highlighting and, for JSON, its first syntax error
 * under the field. The stored text is the template as typed: chips only draw the placeholders.
 */
export const TemplateEditor = (props: TemplateEditorProps) => {
  const { id, label, describedBy, invalid, value, variables, kind, language } = props;
  const labelId = typeof label === 'string' ? null : label.by;
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const [compartments] = useState(() => ({
    language: new Compartment(),
    chips: new Compartment(),
    attributes: new Compartment(),
  }));
  const [hovered, setHovered] = useState<ChipInfo | null>(null);
  const [atCursor, setAtCursor] = useState<ChipInfo | null>(null);
  const [problem, setProblem] = useState<JsonProblem | null>(() =>
    checksJson(kind, value) ? jsonProblem(value) : null,
  );
  const problemShown = useRef(problem !== null);
  problemShown.current = problem !== null;
  const multiLine = isMultiLine(kind);

  const focusChip: ChipFocus = (chip, by) => (by === 'pointer' ? setHovered(chip) : setAtCursor(chip));
  const chipsFor = (groups: readonly ChoiceGroup[] | null) => (groups ? chips(groups, focusChip) : []);
  const described = () => [latest.current.describedBy, problemShown.current && `${id}-json`].filter(Boolean).join(' ');
  const attributes = () =>
    EditorView.contentAttributes.of({
      id,
      ...(labelId ? { 'aria-labelledby': labelId } : { 'aria-label': label as string }),
      'aria-multiline': String(multiLine),
      ...(described() && { 'aria-describedby': described() }),
      ...((latest.current.invalid || problemShown.current) && { 'aria-invalid': 'true' }),
    });

  useEffect(() => {
    if (!host.current) return;
    const submit = (editor: EditorView) => {
      editor.contentDOM.closest('form')?.requestSubmit();
      return true;
    };
    const extensions: Extension[] = [
      history(),
      keymap.of([...(multiLine ? [] : [{ key: 'Enter', run: submit }]), ...defaultKeymap, ...historyKeymap]),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      compartments.language.of(languageOf(kind, language, value)),
      compartments.chips.of(chipsFor(variables)),
      compartments.attributes.of(attributes()),
      // A body becomes JSON (highlighted) when it starts as an object or an array, and stops being it.
      EditorState.transactionExtender.of((tr) => {
        if (kind !== 'body' || !tr.docChanged) return null;
        const text = tr.newDoc.toString();
        if (checksJson(kind, tr.startState.doc.toString()) === checksJson(kind, text)) return null;
        return { effects: compartments.language.reconfigure(languageOf(kind, language, text)) };
      }),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) {
          const text = update.state.doc.toString();
          update.view.contentDOM.dataset.value = text;
          const checked = checksJson(kind, text);
          setProblem(checked ? jsonProblem(text) : null);
          if (!update.transactions.some((tr) => tr.annotation(fromValue))) latest.current.onValue(text);
        }
        if (update.focusChanged && !update.view.hasFocus) latest.current.onBlur?.(update.state.doc.toString());
      }),
    ];
    if (variables)
      extensions.push(
        autocompletion({ override: [variableCompletion(() => latest.current.variables ?? [])], icons: false }),
      );
    if (props.placeholder) extensions.push(placeholderText(props.placeholder));
    if (multiLine) {
      if (kind !== 'text') extensions.push(lineNumbers());
      if (kind !== 'code') extensions.push(EditorView.lineWrapping);
    } else {
      extensions.push(
        EditorView.lineWrapping,
        // One line, as an input: pasted lines are joined with spaces.
        EditorView.clipboardInputFilter.of((text) => text.replace(/\r?\n/g, ' ')),
      );
    }
    if (kind === 'json' || kind === 'body') {
      extensions.push(
        linter(
          (editor) => {
            const text = editor.state.doc.toString();
            const found = checksJson(kind, text) ? jsonProblem(text) : null;
            if (!found) return [];
            const to = Math.min(found.from + 1, text.length);
            return [{ from: Math.min(found.from, to), to, severity: 'error', message: found.message }];
          },
          { delay: 300 },
        ),
      );
    }
    const editor = new EditorView({ parent: host.current, state: EditorState.create({ doc: value, extensions }) });
    editor.contentDOM.dataset.value = value;
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, []);

  // The value changed outside the editor (a reload, a restored version): the editor follows it.
  // While it has the focus the value is what it sent, perhaps a keystroke behind (effects run after
  // the next paint): following it then would undo the typing.
  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.hasFocus || editor.state.doc.toString() === value) return;
    editor.dispatch({
      changes: { from: 0, to: editor.state.doc.length, insert: value },
      annotations: fromValue.of(true),
    });
  }, [value]);

  const signature = signatureOf(variables);
  useEffect(() => {
    view.current?.dispatch({ effects: compartments.chips.reconfigure(chipsFor(variables)) });
  }, [signature]);

  useEffect(() => {
    view.current?.dispatch({ effects: compartments.attributes.reconfigure(attributes()) });
  }, [describedBy, invalid, id, labelId ?? label, problem !== null]);

  // A click on the label focuses the editor, as it would an input.
  useEffect(() => {
    const element = labelId && document.getElementById(labelId);
    if (!element) return;
    const onClick = () => view.current?.focus();
    element.addEventListener('click', onClick);
    return () => element.removeEventListener('click', onClick);
  }, [labelId]);

  useImperativeHandle(props.handle ?? null, () => ({
    insert: (text: string) => {
      const editor = view.current;
      if (!editor) return;
      editor.dispatch(editor.state.replaceSelection(text), {
        scrollIntoView: true,
        userEvent: 'input',
        annotations: isolateHistory.of('full'),
      });
      editor.focus();
    },
    focus: () => view.current?.focus(),
  }));

  const shown = hovered ?? atCursor;
  return (
    <div class={`template-editor template-editor-${kind}`}>
      <div class={`template-editor-host${invalid ? ' invalid' : ''}`} ref={host} />
      <p class="chip-sample" aria-live="polite" id={`${id}-chip`}>
        {shown && (
          <>
            <strong>{shown.label}</strong>: <span class="chip-sample-value">{shown.sample}</span>
          </>
        )}
      </p>
      {problem && (
        <p class="field-error json-problem" id={`${id}-json`}>
          {problem.message}
        </p>
      )}
    </div>
  );
};
