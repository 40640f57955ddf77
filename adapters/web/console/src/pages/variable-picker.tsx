import { useRef, useState } from 'preact/hooks';
import { useEscapeCloses } from '../escape-closes';
import { useId } from '../ui';
import { TemplateEditor } from './fields/lazy-editor';
import type { TemplateEditorHandle } from './fields/template-editor';
import type { ChoiceGroup } from './variables';

/**
 * Inserts a variable: `{{step.<id>.<path>}}` from earlier steps' latest sample output, a loop's
 * item, index or results, or `{{execution.resumeUrl}}` (see `choicesFor`).
 */
export const VariablePicker = ({
  variables,
  onPick,
  label,
}: {
  variables: readonly ChoiceGroup[];
  onPick: (text: string) => void;
  label: string;
}) => {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  useEscapeCloses(open, () => setOpen(false), toggle);
  // The run's own variables are always there; the steps' only once they have sample output.
  const fromSteps = variables.filter((group) => group.choices.some((c) => c.text.startsWith('{{step.')));
  return (
    <div class="variable-picker">
      <button type="button" class="small" ref={toggle} aria-expanded={open} onClick={() => setOpen(!open)}>
        Insert variable<span class="visually-hidden"> into {label}</span>
      </button>
      {open && (
        <div class="picker-panel">
          {fromSteps.length === 0 && (
            <p class="muted">No sample data yet: test the earlier steps first to pick from their output.</p>
          )}
          {variables
            .filter((group) => group.choices.length > 0)
            .map((group) => (
              <fieldset key={group.title}>
                <legend>{group.title}</legend>
                <ul>
                  {group.choices.map((choice) => (
                    <li key={choice.text}>
                      <button
                        type="button"
                        class="variable"
                        onClick={() => {
                          onPick(choice.text);
                          setOpen(false);
                        }}
                      >
                        <code>{choice.path}</code> <span class="muted">{choice.preview}</span>
                      </button>
                    </li>
                  ))}
                </ul>
              </fieldset>
            ))}
        </div>
      )}
    </div>
  );
};

/** A row's value that accepts variables: one line with chips, and its own picker. */
export const ValueWithVariables = ({
  label,
  pickerLabel,
  value,
  onValue,
  variables,
}: {
  label: string;
  pickerLabel: string;
  value: string;
  onValue: (text: string) => void;
  variables: readonly ChoiceGroup[];
}) => {
  const id = useId('kv-value');
  const editor = useRef<TemplateEditorHandle>(null);
  return (
    <>
      <TemplateEditor
        id={id}
        label={label}
        handle={editor}
        kind="line"
        value={value}
        onValue={onValue}
        variables={variables}
      />
      <VariablePicker
        variables={variables}
        label={pickerLabel}
        // Picked while the editor still loads, the variable goes at the end rather than nowhere.
        onPick={(snippet) => (editor.current ? editor.current.insert(snippet) : onValue(`${value}${snippet}`))}
      />
    </>
  );
};
