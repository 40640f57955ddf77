import { createHash } from 'node:crypto';
import type { FieldErrors } from '../../core/domain/errors.js';
import { FORM_LIMITS, type Form, type FormField, formTitle } from '../../core/domain/form.js';
import { ANSWER_LIMITS, isChecked, type SentValues } from '../../core/domain/form-answers.js';
import { escapeHtml as e } from './html.js';

/**
 * The pages of a form, for anyone with its link: the public page of a form (`/forms/:formId`) and
 * the page of a run waiting for one (`/webhooks/runs/:id/:token/forms/:formId`) render the same.
 * Plain HTML: labelled inputs, required ones marked and required, problems listed at the top with
 * links to their fields and said again next to each; no script, nothing loaded from elsewhere, and
 * every text the form's owner or a visitor wrote escaped.
 */

const STYLE = `*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1f24;background:#f4f6f8}
main{max-width:40rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.6rem;margin:0 0 .5rem}
.description,.message{white-space:pre-wrap}
.field{margin:1.1rem 0}
label,legend{display:block;font-weight:600;margin-bottom:.3rem}
.check{display:flex;gap:.5rem;align-items:flex-start}.check label{font-weight:400}
input:not([type=checkbox]),select,textarea{width:100%;padding:.5rem .6rem;font:inherit;border:1px solid #8a939c;border-radius:6px}
input[type=checkbox]{width:1.2rem;height:1.2rem;margin:.2rem 0}
input:focus,select:focus,textarea:focus,button:focus,a:focus{outline:3px solid #0059f7;outline-offset:2px}
[readonly],[disabled]{background:#eef0f2}
fieldset{border:1px solid #c6ccd2;border-radius:6px;margin:1.1rem 0;padding:.5rem 1rem}
fieldset fieldset{border-style:dashed}
.hint{color:#4a535c;margin:.2rem 0;font-size:.9rem}
.error{color:#a4000f;font-weight:600;margin:.2rem 0}
[aria-invalid=true]{border-color:#a4000f;border-width:2px}
.required{color:#a4000f}
.problems{border:2px solid #a4000f;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
.problems h2{font-size:1.1rem;margin:.3rem 0}
.refused{border-left:4px solid #a4000f;padding-left:.8rem}
button{font:inherit;font-weight:600;padding:.6rem 1.4rem;border:0;border-radius:6px;background:#0059f7;color:#fff;cursor:pointer}
a{color:#0047c4}`;

/**
 * Nothing runs and nothing loads: the style is allowed by its hash. No `form-action`: a flow's
 * answer may send the visitor elsewhere once the form is posted, which that rule would block.
 */
export const FORM_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; frame-ancestors 'self'`;

const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${e(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;

export interface FormPageOptions {
  readonly form: Form;
  /** Where the form posts: the page's own address, its query string kept. */
  readonly action: string;
  /** What the inputs hold: the page's query parameters, or what the visitor sent. */
  readonly values: SentValues;
  /** What was wrong with the answers, by input name. */
  readonly problems?: FieldErrors;
}

/** Where a format sends the browser: its input type, and the pattern the browser checks too. */
const FORMAT_INPUTS: Readonly<Record<string, { readonly type: string; readonly pattern?: string }>> = {
  email: { type: 'email' },
  url: { type: 'url' },
  tel: { type: 'tel', pattern: '\\+?[0-9\\s\\-\\(\\)]+' },
  number: { type: 'text', pattern: '[+\\-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+\\-]?[0-9]+)?' },
  alphanumeric: { type: 'text', pattern: '[a-zA-Z0-9]+' },
};
const TYPE_INPUTS: Readonly<Record<string, string>> = { date: 'date', time: 'time', datetime: 'datetime-local' };

/** The `aria-describedby` of an input: its hint and its problem, when it has them. */
const describedBy = (id: string, hint: boolean, problem: boolean) => {
  const ids = [...(hint ? [`${id}-hint`] : []), ...(problem ? [`${id}-error`] : [])];
  return ids.length ? ` aria-describedby="${ids.join(' ')}"` : '';
};

const labelText = (field: FormField) =>
  `${e(field.name)}${field.required ? ' <span class="required" aria-hidden="true">*</span>' : ''}`;

/** One input, its label, hint and problem. `name` is what it posts as; `id` is where links point. */
const renderInput = (field: FormField, name: string, id: string, values: SentValues, problems: FieldErrors) => {
  const value = values.get(name) ?? '';
  const problem = problems[name]?.join(' ');
  const hint = field.validationHelperText && field.type === 'string' ? field.validationHelperText : '';
  const common = `id="${id}" name="${e(name)}"${field.required ? ' required' : ''}${problem ? ' aria-invalid="true"' : ''}${describedBy(id, hint !== '', problem !== undefined)}`;
  const after = `${hint ? `<p class="hint" id="${id}-hint">${e(hint)}</p>` : ''}${problem ? `<p class="error" id="${id}-error">${e(problem)}</p>` : ''}`;
  // Select and checkbox inputs cannot be read-only: shown disabled, their value posted alongside.
  const kept = field.readonly && value !== '' ? `<input type="hidden" name="${e(name)}" value="${e(value)}">` : '';
  switch (field.type) {
    case 'checkbox':
      return `<div class="field check"><input type="checkbox" value="true" ${common}${isChecked(value) ? ' checked' : ''}${field.readonly ? ' disabled' : ''}><label for="${id}">${labelText(field)}</label></div>${kept}${after}`;
    case 'dropdown': {
      const options = (field.options ?? [])
        .map((o) => `<option value="${e(o.value)}"${o.value === value ? ' selected' : ''}>${e(o.value)}</option>`)
        .join('');
      return `<div class="field"><label for="${id}">${labelText(field)}</label><select ${common}${field.readonly ? ' disabled' : ''}><option value="">Choose an option</option>${options}</select>${kept}${after}</div>`;
    }
    case 'multiline':
      return `<div class="field"><label for="${id}">${labelText(field)}</label><textarea rows="4" maxlength="${ANSWER_LIMITS.multiline}" ${common}${field.readonly ? ' readonly' : ''}>${e(value)}</textarea>${after}</div>`;
    default: {
      const format =
        field.type === 'string' && field.validationFormat ? FORMAT_INPUTS[field.validationFormat] : undefined;
      const custom =
        field.type === 'string' && field.validationFormat === 'custom' ? field.validationPattern : undefined;
      const type = TYPE_INPUTS[field.type] ?? format?.type ?? 'text';
      const pattern = custom ?? format?.pattern;
      const rules = `${pattern ? ` pattern="${e(pattern)}"` : ''}${hint ? ` title="${e(hint)}"` : ''}`;
      return `<div class="field"><label for="${id}">${labelText(field)}</label><input type="${type}" maxlength="${ANSWER_LIMITS.text}" value="${e(value)}" ${common}${rules}${field.readonly ? ' readonly' : ''}>${after}</div>`;
    }
  }
};

/** How many rows an array field offers: what was sent, what it needs, five otherwise; never past its bound. */
const rowsOffered = (field: FormField, values: SentValues) => {
  let sent = 0;
  for (const name of values.keys()) {
    const match = name.startsWith(`${field.key}.`) ? /^(\d{1,3})\./.exec(name.slice(field.key.length + 1)) : null;
    if (match) sent = Math.max(sent, Number(match[1]) + 1);
  }
  const bound = Math.min(field.maxItems ?? FORM_LIMITS.items, FORM_LIMITS.items);
  return Math.max(1, Math.min(bound, Math.max(sent, field.minItems ?? 0, 5)));
};

const renderArray = (field: FormField, id: string, values: SentValues, problems: FieldErrors) => {
  const problem = problems[field.key]?.join(' ');
  const rows = Array.from({ length: rowsOffered(field, values) }, (_, row) => {
    const inputs = (field.fields ?? [])
      .map((sub, index) =>
        renderInput(sub, `${field.key}.${row}.${sub.key}`, `${id}-${row}-${index}`, values, problems),
      )
      .join('\n');
    return `<fieldset><legend>${e(field.name)} ${row + 1}</legend>\n${inputs}\n</fieldset>`;
  });
  const bounds = [
    field.minItems ? `at least ${field.minItems}` : '',
    field.maxItems !== undefined ? `at most ${field.maxItems}` : '',
  ].filter(Boolean);
  const hint = `Fill in ${bounds.length ? bounds.join(' and ') : 'as many as you need'}; rows left empty are not sent.`;
  return `<fieldset id="${id}"${problem ? ` aria-describedby="${id}-error"` : ''}><legend>${labelText(field)}</legend><p class="hint">${e(hint)}</p>${problem ? `<p class="error" id="${id}-error">${e(problem)}</p>` : ''}\n${rows.join('\n')}\n</fieldset>`;
};

/** Where each input name's problem is shown, for the list's links. */
const anchors = (form: Form) => {
  const ids = new Map<string, { readonly id: string; readonly label: string }>();
  for (const [index, field] of form.fields.entries()) {
    ids.set(field.key, { id: `field-${index}`, label: field.name });
    for (const row of Array.from({ length: FORM_LIMITS.items }, (_, n) => n)) {
      for (const [sub, subfield] of (field.fields ?? []).entries()) {
        ids.set(`${field.key}.${row}.${subfield.key}`, {
          id: `field-${index}-${row}-${sub}`,
          label: `${field.name} ${row + 1}, ${subfield.name}`,
        });
      }
    }
  }
  return ids;
};

const renderProblems = (form: Form, problems: FieldErrors) => {
  const entries = Object.entries(problems);
  if (!entries.length) return '';
  const places = anchors(form);
  const items = entries.map(([name, messages]) => {
    const place = places.get(name);
    const text = e(messages.join(' '));
    return place ? `<li><a href="#${place.id}">${e(place.label)}: ${text}</a></li>` : `<li>${text}</li>`;
  });
  return `<div class="problems" role="alert"><h2>Please check your answers</h2><ul>${items.join('')}</ul></div>`;
};

/** A form's page: its title, description, problems (when the last answers had some) and fields. */
export const renderFormPage = ({ form, action, values, problems = {} }: FormPageOptions): string => {
  const fields = form.fields.map((field, index) =>
    field.type === 'array'
      ? renderArray(field, `field-${index}`, values, problems)
      : renderInput(field, field.key, `field-${index}`, values, problems),
  );
  const title = formTitle(form);
  const errorTitle = Object.keys(problems).length ? `Error: ${title}` : title;
  return page(
    errorTitle,
    `<h1>${e(title)}</h1>
${form.description ? `<p class="description">${e(form.description)}</p>` : ''}
${renderProblems(form, problems)}
<p class="hint">Fields marked <span class="required">*</span> are required.</p>
<form method="post" action="${e(action)}" accept-charset="utf-8">
${fields.join('\n')}
<button type="submit">${e(form.submitButtonText || 'Submit')}</button>
</form>`,
  );
};

export interface MessagePageOptions {
  readonly title: string;
  readonly message: string;
  /** A refusal (a problem, or a flow's answer of 400 and more) rather than a confirmation. */
  readonly refused?: boolean;
  /** A link back to the form, for another answer. */
  readonly back?: string;
}

/** What a form's page says after the answers, or instead of the form (not found, refused). */
export const renderMessagePage = ({ title, message, refused = false, back }: MessagePageOptions): string =>
  page(
    title,
    `<h1>${e(title)}</h1>
<div class="message${refused ? ' refused' : ''}" role="${refused ? 'alert' : 'status'}">${e(message)}</div>
${back ? `<p><a href="${e(back)}">Send another answer</a></p>` : ''}`,
  );
