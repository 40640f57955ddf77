import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api';
import type { Argument, Step } from '../types';
import { FieldError, useId } from '../ui';
import { editorKindOf } from './fields/editor-kind';
import { TemplateEditor } from './fields/lazy-editor';
import type { TemplateEditorHandle } from './fields/template-editor';
import { ValueWithVariables, VariablePicker } from './variable-picker';
import type { ChoiceGroup } from './variables';

type Parameters = Record<string, unknown>;

interface KeyValue {
  key: string;
  value: string;
}

interface FieldProps {
  readonly argument: Argument;
  readonly value: unknown;
  readonly onValue: (value: unknown) => void;
  readonly errors: string[] | undefined;
  readonly step: Step;
  readonly parameters: Parameters;
  /** What its picker offers (`choicesFor`). */
  readonly variables: readonly ChoiceGroup[];
}

const KeyValueList = ({
  id,
  value,
  onValue,
  label,
  variables,
}: {
  id: string;
  value: unknown;
  onValue: (v: KeyValue[]) => void;
  label: string;
  /** Given when the values accept variables: each row gets a picker for its value. */
  variables: readonly ChoiceGroup[] | null;
}) => {
  const rows: KeyValue[] = Array.isArray(value) ? (value as KeyValue[]) : [];
  const set = (index: number, patch: Partial<KeyValue>) =>
    onValue(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <div class="key-values" id={id}>
      {rows.map((row, index) => (
        <div class="key-value" key={index}>
          <input
            aria-label={`${label}: key ${index + 1}`}
            value={row.key}
            onInput={(e) => set(index, { key: e.currentTarget.value })}
          />
          {variables ? (
            <ValueWithVariables
              label={`${label}: value ${index + 1}`}
              pickerLabel={`${label} value ${index + 1}`}
              value={row.value}
              onValue={(text) => set(index, { value: text })}
              variables={variables}
            />
          ) : (
            <input
              aria-label={`${label}: value ${index + 1}`}
              value={row.value}
              onInput={(e) => set(index, { value: e.currentTarget.value })}
            />
          )}
          <button type="button" class="small" onClick={() => onValue(rows.filter((_, i) => i !== index))}>
            Remove<span class="visually-hidden"> row {index + 1}</span>
          </button>
        </div>
      ))}
      <button type="button" class="small" onClick={() => onValue([...rows, { key: '', value: '' }])}>
        Add a row<span class="visually-hidden"> to {label}</span>
      </button>
    </div>
  );
};

/** A value a list does not hold (a variable, a name the vendor no longer lists), kept as a choice of its own. */
const kept = (values: readonly unknown[], value: unknown) =>
  typeof value === 'string' && value !== '' && !values.some((v) => String(v) === value) ? (
    <option value={value}>{value}</option>
  ) : null;

const DynamicDropdown = ({
  id,
  argument,
  value,
  onValue,
  step,
  parameters,
  describedBy,
  inputRef,
}: FieldProps & { id: string; describedBy?: string; inputRef: preact.RefObject<HTMLInputElement> }) => {
  const [options, setOptions] = useState<{ name: string; value: string | number }[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const source = argument.dynamicData;
  const dependsOn = JSON.stringify(source?.dependsOn.map((key) => parameters[key]) ?? []);
  useEffect(() => {
    if (!source) return;
    setFailure(null);
    api
      .post<{ name: string; value: string | number }[]>(`/steps/${step.id}/dynamic-data`, {
        dynamicDataKey: source.key,
        parameters,
      })
      .then(
        (r) => setOptions(r.data),
        (e: Error) => setFailure(e.message),
      );
  }, [step.id, step.connectionId, source?.key, dependsOn]);
  const chosen = argument.multiple && Array.isArray(value) ? value.map(String) : [];
  return (
    <>
      {argument.multiple ? (
        <select
          id={id}
          multiple
          onChange={(e) => onValue(Array.from(e.currentTarget.selectedOptions, (option) => option.value))}
          aria-describedby={describedBy}
        >
          {options?.map((option) => (
            <option
              key={String(option.value)}
              value={String(option.value)}
              selected={chosen.includes(String(option.value))}
            >
              {option.name}
            </option>
          ))}
        </select>
      ) : failure ? (
        // Without its options the step stays configurable: the value typed, or a variable inserted.
        <input
          id={id}
          ref={inputRef}
          value={String(value ?? '')}
          onInput={(e) => onValue(e.currentTarget.value)}
          aria-describedby={describedBy}
        />
      ) : (
        <select
          id={id}
          value={String(value ?? '')}
          onChange={(e) => onValue(e.currentTarget.value)}
          aria-describedby={describedBy}
        >
          <option value="">{options ? 'Choose…' : 'Loading options…'}</option>
          {options?.map((option) => (
            <option key={String(option.value)} value={String(option.value)}>
              {option.name}
            </option>
          ))}
          {options &&
            kept(
              options.map((option) => option.value),
              value,
            )}
        </select>
      )}
      {failure && <p class="field-error">Options could not be loaded: {failure}. Type the value instead.</p>}
    </>
  );
};

/** One argument of a step, drawn by its type from the app's description. */
export const ArgumentField = (props: FieldProps) => {
  const { argument, value, onValue, errors, variables } = props;
  const id = useId(`arg-${argument.key}`);
  const input = useRef<HTMLInputElement | HTMLTextAreaElement>(null);
  const describedBy =
    [argument.description && `${id}-hint`, errors?.length && `${id}-error`].filter(Boolean).join(' ') || undefined;
  const text = value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const editor = useRef<TemplateEditorHandle>(null);
  const kind = editorKindOf(argument);
  const insert = (snippet: string) => {
    if (editor.current) return editor.current.insert(snippet);
    // A list's value is one choice: a variable takes its place.
    if (argument.type === 'dropdown' && !input.current) return onValue(snippet);
    const element = input.current;
    const at = element?.selectionStart ?? text.length;
    const end = element?.selectionEnd ?? at;
    onValue(text.slice(0, at) + snippet + text.slice(end));
  };
  const label = `${argument.label}${argument.required ? ' (required)' : ''}`;

  let control: preact.JSX.Element;
  if (argument.type === 'boolean') {
    control = (
      <input
        id={id}
        type="checkbox"
        checked={value === true || (value === undefined && argument.defaultValue === true)}
        onChange={(e) => onValue(e.currentTarget.checked)}
        aria-describedby={describedBy}
      />
    );
  } else if (argument.dynamicData) {
    control = (
      <DynamicDropdown
        {...props}
        id={id}
        describedBy={describedBy}
        inputRef={input as preact.RefObject<HTMLInputElement>}
      />
    );
  } else if (argument.type === 'dropdown') {
    control = (
      <select
        id={id}
        value={String(value ?? argument.defaultValue ?? '')}
        onChange={(e) => {
          const picked = argument.options?.find((o) => String(o.value) === e.currentTarget.value);
          onValue(picked ? picked.value : e.currentTarget.value || undefined);
        }}
        aria-describedby={describedBy}
        aria-invalid={errors?.length ? true : undefined}
      >
        <option value="">Choose…</option>
        {argument.options?.map((option) => (
          <option key={String(option.value)} value={String(option.value)}>
            {option.label}
          </option>
        ))}
        {kept(argument.options?.map((option) => option.value) ?? [], value)}
      </select>
    );
  } else if (argument.type === 'keyValueList') {
    control = (
      <KeyValueList
        id={id}
        value={value}
        onValue={onValue}
        label={argument.label}
        variables={argument.acceptsVariables ? variables : null}
      />
    );
  } else if (kind !== 'input') {
    const json = argument.type === 'json';
    control = (
      <TemplateEditor
        id={id}
        label={{ by: `${id}-label` }}
        handle={editor}
        kind={kind}
        language={argument.language}
        placeholder={
          argument.placeholder ?? (argument.defaultValue !== undefined ? String(argument.defaultValue) : undefined)
        }
        value={json && typeof value !== 'string' && value !== undefined ? JSON.stringify(value, null, 2) : text}
        variables={argument.acceptsVariables ? variables : null}
        onValue={(raw) =>
          onValue(argument.type === 'number' && raw.trim() !== '' && !Number.isNaN(Number(raw)) ? Number(raw) : raw)
        }
        onBlur={(raw) => {
          if (!json) return;
          try {
            onValue(JSON.parse(raw));
          } catch {
            // Left as text (a variable in it, or an error shown under it): the server says what is wrong.
          }
        }}
        describedBy={describedBy}
        invalid={Boolean(errors?.length)}
      />
    );
  } else {
    control = (
      <input
        id={id}
        ref={input as preact.RefObject<HTMLInputElement>}
        type={argument.secret ? 'password' : 'text'}
        inputMode={argument.type === 'number' && !argument.acceptsVariables ? 'decimal' : undefined}
        placeholder={
          argument.placeholder ?? (argument.defaultValue !== undefined ? String(argument.defaultValue) : undefined)
        }
        value={text}
        onInput={(e) => {
          const raw = e.currentTarget.value;
          onValue(argument.type === 'number' && raw.trim() !== '' && !Number.isNaN(Number(raw)) ? Number(raw) : raw);
        }}
        aria-describedby={describedBy}
        aria-invalid={errors?.length ? true : undefined}
      />
    );
  }

  return (
    <div class={`field${argument.type === 'boolean' ? ' field-checkbox' : ''}`}>
      {/* The editor is no form control `for` can name: it reads its label by id (aria-labelledby). */}
      <label for={id} id={`${id}-label`}>
        {label}
      </label>
      {control}
      {argument.description && (
        <p class="hint" id={`${id}-hint`}>
          {argument.description}
        </p>
      )}
      {argument.acceptsVariables && argument.type !== 'keyValueList' && (
        <VariablePicker variables={variables} onPick={insert} label={argument.label} />
      )}
      <FieldError id={`${id}-error`} messages={errors} />
    </div>
  );
};
