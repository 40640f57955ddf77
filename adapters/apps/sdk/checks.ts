/** Rules for the `check` option of the argument builders: a message when broken, null when it holds. */

export const httpUrl = (value: string): string | null => {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:' ? null : 'must be an http or https URL.';
  } catch {
    return 'must be an http or https URL.';
  }
};

export const matches =
  (pattern: RegExp, message: string) =>
  (value: string): string | null =>
    pattern.test(value) ? null : message;
