import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, type FieldErrors } from '../api';
import type { Form, FormField, FormFieldType, ValidationFormat } from '../types';
import { CheckboxField, FieldError, FormErrors, InputField, LoadStatus, Page, useAction, useId, useLoad } from '../ui';
import { publicFormUrl } from './forms';

const TYPES: readonly { value: FormFieldType; label: string }[] = [
  { value: 'string', label: 'Text' },
  { value: 'multiline', label: 'Long text' },
  { value: 'checkbox', label: 'Checkbox' },
  { value: 'dropdown', label: 'Dropdown' },
  { value: 'date', label: 'Date' },
  { value: 'time', label: 'Time' },
  { value: 'datetime', label: 'Date and time' },
  { value: 'array', label: 'Rows of fields' },
];
const FORMATS: readonly { value: ValidationFormat; label: string }[] = [
  { value: '', label: 'Any text' },
  { value: 'email', label: 'E-mail address' },
  { value: 'url', label: 'Web address' },
  { value: 'tel', label: 'Phone number' },
  { value: 'number', label: 'Number' },
  { value: 'alphanumeric', label: 'Letters and digits' },
  { value: 'custom', label: 'Pattern of my own' },
];

/** The answer's key when none was typed: the label, as Automatisch makes it (lower case, dashes). */
const keyOf = (name: string, index: number) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || `field-${index + 1}`;

/** Keys filled in from labels, in sub-fields too, before the form is sent. */
const withKeys = (fields: readonly FormField[]): FormField[] =>
  fields.map((field, index) => ({
    ...field,
    key: field.key.trim() === '' ? keyOf(field.name, index) : field.key,
    ...(field.fields && { fields: withKeys(field.fields) }),
  }));

const blankField = (): FormField => ({ name: '', key: '', type: 'string', required: false, readonly: false });

/** A select with its label, and the problem the server found with it. */
const SelectField = ({
  label,
  name,
  value,
  options,
  onValue,
  errors,
}: {
  label: string;
  name: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onValue: (value: string) => void;
  errors: FieldErrors;
}) => {
  const id = useId('select');
  const messages = errors[name];
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select
        id={id}
        value={value}
        onChange={(e) => onValue(e.currentTarget.value)}
        aria-invalid={messages?.length ? true : undefined}
        aria-describedby={messages?.length ? `${id}-error` : undefined}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} messages={messages} />
    </div>
  );
};

const TextArea = ({
  label,
  name,
  value,
  onValue,
  errors,
  hint,
}: {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  errors: FieldErrors;
  hint?: string;
}) => {
  const id = useId('text');
  const messages = errors[name];
  const described = [hint ? `${id}-hint` : '', messages?.length ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea
        id={id}
        rows={3}
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
        aria-invalid={messages?.length ? true : undefined}
        aria-describedby={described || undefined}
      />
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} messages={messages} />
    </div>
  );
};

/** The messages under `prefix` (a field's choices), joined: the server names each choice. */
const under = (errors: FieldErrors, prefix: string) =>
  Object.entries(errors)
    .filter(([key]) => key.startsWith(`${prefix}.`))
    .flatMap(([, messages]) => messages);

interface FieldEditorProps {
  field: FormField;
  /** Where the server's messages about it are: `fields.<index>` or `fields.<index>.fields.<index>`. */
  path: string;
  position: number;
  count: number;
  /** Sub-fields cannot hold rows of their own. */
  nested: boolean;
  errors: FieldErrors;
  onChange: (field: FormField) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

const FieldEditor = ({
  field,
  path,
  position,
  count,
  nested,
  errors,
  onChange,
  onMove,
  onRemove,
}: FieldEditorProps) => {
  const set = (changes: Partial<FormField>) => onChange({ ...field, ...changes });
  const label = `${nested ? 'Column' : 'Field'} ${position + 1}${field.name ? `: ${field.name}` : ''}`;
  const types = nested ? TYPES.filter((t) => t.value !== 'array') : TYPES;
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
  return (
    <fieldset class="subcard form-field">
      <legend>{label}</legend>
      <div class="grid-3">
        <InputField
          label="Label"
          name={`${path}.name`}
          value={field.name}
          onValue={(name) => set({ name })}
          errors={errors}
          required
        />
        <InputField
          label="Key"
          name={`${path}.key`}
          value={field.key}
          onValue={(key) => set({ key })}
          errors={errors}
          hint={`The answer’s name in the flow; from the label when empty (${keyOf(field.name, position)}).`}
        />
        <SelectField
          label="Type"
          name={`${path}.type`}
          value={field.type}
          options={types}
          onValue={(type) => set({ type: type as FormFieldType })}
          errors={errors}
        />
      </div>
      <div class="inline">
        <CheckboxField label="Required" checked={field.required ?? false} onValue={(required) => set({ required })} />
        <CheckboxField
          label="Read-only (filled in from the address)"
          checked={field.readonly ?? false}
          onValue={(readonly) => set({ readonly })}
        />
      </div>
      {field.type === 'string' && (
        <div class="grid-3">
          <SelectField
            label="Format"
            name={`${path}.validationFormat`}
            value={field.validationFormat ?? ''}
            options={FORMATS}
            onValue={(format) => set({ validationFormat: format as ValidationFormat })}
            errors={errors}
          />
          {field.validationFormat === 'custom' && (
            <InputField
              label="Pattern"
              name={`${path}.validationPattern`}
              value={field.validationPattern ?? ''}
              onValue={(validationPattern) => set({ validationPattern })}
              errors={errors}
              hint="As HTML's pattern attribute reads it; the visitor's browser checks it."
            />
          )}
          {field.validationFormat && (
            <InputField
              label="Message when it does not fit"
              name={`${path}.validationHelperText`}
              value={field.validationHelperText ?? ''}
              onValue={(validationHelperText) => set({ validationHelperText })}
              errors={errors}
            />
          )}
        </div>
      )}
      {field.type === 'dropdown' && (
        <TextArea
          label="Choices, one per line"
          name={`${path}.options`}
          value={(field.options ?? []).map((o) => o.value).join('\n')}
          onValue={(text) => set({ options: text.split('\n').map((value) => ({ value })) })}
          errors={{ [`${path}.options`]: [...(errors[`${path}.options`] ?? []), ...under(errors, `${path}.options`)] }}
        />
      )}
      {field.type === 'array' && (
        <>
          <div class="grid-3">
            <InputField
              label="Fewest rows"
              name={`${path}.minItems`}
              type="number"
              min={0}
              value={field.minItems === undefined ? '' : String(field.minItems)}
              onValue={(text) => set({ minItems: number(text) })}
              errors={errors}
            />
            <InputField
              label="Most rows"
              name={`${path}.maxItems`}
              type="number"
              min={1}
              value={field.maxItems === undefined ? '' : String(field.maxItems)}
              onValue={(text) => set({ maxItems: number(text) })}
              errors={errors}
            />
          </div>
          <FieldList
            fields={field.fields ?? []}
            path={`${path}.fields`}
            nested
            errors={errors}
            onChange={(fields) => set({ fields })}
          />
        </>
      )}
      <div class="buttons">
        <button type="button" class="small" disabled={position === 0} onClick={() => onMove(-1)}>
          Move up<span class="visually-hidden"> {label}</span>
        </button>
        <button type="button" class="small" disabled={position === count - 1} onClick={() => onMove(1)}>
          Move down<span class="visually-hidden"> {label}</span>
        </button>
        <button type="button" class="small danger" onClick={onRemove}>
          Remove<span class="visually-hidden"> {label}</span>
        </button>
      </div>
    </fieldset>
  );
};

const FieldList = ({
  fields,
  path,
  nested = false,
  errors,
  onChange,
}: {
  fields: readonly FormField[];
  path: string;
  nested?: boolean;
  errors: FieldErrors;
  onChange: (fields: FormField[]) => void;
}) => {
  const replace = (index: number, field: FormField) => onChange(fields.map((f, i) => (i === index ? field : f)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...fields];
    const [moved] = next.splice(index, 1);
    if (moved) next.splice(index + by, 0, moved);
    onChange(next);
  };
  return (
    <div class="form-fields">
      {fields.map((field, index) => (
        <FieldEditor
          // Fields have no id of their own; every input is controlled, so the index is enough.
          key={index}
          field={field}
          path={`${path}.${index}`}
          position={index}
          count={fields.length}
          nested={nested}
          errors={errors}
          onChange={(changed) => replace(index, changed)}
          onMove={(by) => move(index, by)}
          onRemove={() => onChange(fields.filter((_, i) => i !== index))}
        />
      ))}
      <FieldError messages={errors[path]} />
      <button type="button" onClick={() => onChange([...fields, blankField()])}>
        {nested ? 'Add a column' : 'Add a field'}
      </button>
    </div>
  );
};

const TEXTS = ['name', 'displayName', 'description', 'submitButtonText', 'responseMessage'] as const;
type Texts = Record<(typeof TEXTS)[number], string>;

const EMPTY: Texts = { name: '', displayName: '', description: '', submitButtonText: '', responseMessage: '' };

/** Builds or changes a form: its page's texts and its fields. */
export const FormEditor = ({ formId }: { formId?: string }) => {
  const { route } = useLocation();
  const creating = formId === undefined;
  const loaded = useLoad(async () => (creating ? null : (await api.get<Form>(`/forms/${formId}`)).data), [formId]);
  const [texts, setTexts] = useState<Texts>(EMPTY);
  const [fields, setFields] = useState<FormField[]>([blankField()]);
  const { errors, busy, run } = useAction();
  useEffect(() => {
    const form = loaded.data;
    if (!form) return;
    setTexts(Object.fromEntries(TEXTS.map((key) => [key, form[key] ?? ''])) as Texts);
    setFields(form.fields);
  }, [loaded.data]);
  const text = (key: keyof Texts) => ({
    name: key,
    value: texts[key],
    onValue: (value: string) => setTexts({ ...texts, [key]: value }),
    errors,
  });

  const save = async () => {
    const optional = (value: string) => (value.trim() === '' ? null : value);
    const body = {
      name: texts.name,
      displayName: optional(texts.displayName),
      description: optional(texts.description),
      submitButtonText: optional(texts.submitButtonText),
      responseMessage: optional(texts.responseMessage),
      fields: withKeys(fields).map((field) =>
        field.type === 'dropdown' ? { ...field, options: (field.options ?? []).filter((o) => o.value !== '') } : field,
      ),
    };
    const saved = await run(() =>
      creating ? api.post<Form>('/forms', body) : api.patch<Form>(`/forms/${formId}`, body),
    );
    if (saved) route('/form-entities');
  };

  const title = creating ? 'Create form' : `Edit ${loaded.data?.name ?? 'form'}`;
  return (
    <Page title={title}>
      {!creating && <LoadStatus of={loaded} />}
      {!creating && loaded.data && (
        <p>
          Its page: <a href={publicFormUrl(loaded.data.id)}>{publicFormUrl(loaded.data.id)}</a>
        </p>
      )}
      <form
        class="card"
        aria-label={title}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <FormErrors
          errors={Object.fromEntries(Object.entries(errors).filter(([key]) => !key.startsWith('fields.')))}
          fields={[...TEXTS]}
        />
        <div class="grid-2">
          <InputField label="Name" hint="What you call it in lists and flows." required {...text('name')} />
          <InputField label="Title on its page" hint="The name when empty." {...text('displayName')} />
        </div>
        <TextArea label="Description" {...text('description')} />
        <div class="grid-2">
          <InputField label="Submit button text" hint="“Submit” when empty." {...text('submitButtonText')} />
          <TextArea
            label="Response message"
            hint="Shown once the answers are in, unless a flow answers with its own words."
            {...text('responseMessage')}
          />
        </div>
        <h2>Fields</h2>
        <FieldList fields={fields} path="fields" errors={errors} onChange={setFields} />
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy}>
            Save form
          </button>
          <a class="button" href="/form-entities">
            Cancel
          </a>
        </div>
      </form>
    </Page>
  );
};
