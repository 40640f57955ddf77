/**
 * Stripe's API takes form bodies, with nested values in brackets: `metadata[plan]=pro`,
 * `line_items[0][price]=price_1`. Undefined values are left out, so optional arguments not given
 * are not sent (an empty text would clear the field at Stripe).
 */
type FormValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly FormValue[]
  | { readonly [key: string]: FormValue };

const append = (form: URLSearchParams, name: string, value: FormValue) => {
  if (value === undefined || value === null) return;
  if (typeof value === 'object') {
    // A list's entries are its indexes: `line_items[0][price]`.
    for (const [key, item] of Object.entries(value)) append(form, `${name}[${key}]`, item);
  } else {
    form.append(name, String(value));
  }
};

export const stripeForm = (fields: { readonly [key: string]: FormValue }): URLSearchParams => {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) append(form, name, value);
  return form;
};

/** A key-value list as Stripe metadata (`metadata[key]=value`); none when the list is empty. */
export const metadataOf = (rows: readonly { key: string; value: string }[] | undefined) =>
  rows && rows.length > 0 ? Object.fromEntries(rows.map((row) => [row.key, row.value])) : undefined;
