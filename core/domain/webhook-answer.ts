/**
 * What a "respond with" step may answer a `/sync` webhook call with. The webhook app checks its
 * arguments with these rules when the step is saved, tested and run, and the answer is checked
 * again before it is sent, so that nothing the HTTP server cannot write reaches it.
 */

/** RFC 9110's `token`: the characters a header name may have. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Tab, printable ASCII and Latin-1: what Node writes in a header value; no CR, LF, NUL or other control. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Statuses whose answer has no body. */
const WITHOUT_BODY = new Set([204, 205, 304]);

export const headerNameProblem = (name: string): string | null =>
  TOKEN.test(name)
    ? null
    : `"${name}" is not a header name: use letters, digits and ! # $ % & ' * + - . ^ _ \` | ~ only.`;

export const headerValueProblem = (name: string, value: string): string | null =>
  FIELD_VALUE.test(value)
    ? null
    : `The value of ${name} may not hold line breaks, NUL or other control characters, nor characters beyond Latin-1.`;

/** The first problem of a list of headers, or null. */
export const headersProblem = (headers: readonly { readonly key: string; readonly value: string }[]): string | null => {
  for (const { key, value } of headers) {
    const problem = headerNameProblem(key) ?? headerValueProblem(key, value);
    if (problem) return problem;
  }
  return null;
};

export const statusProblem = (status: number): string | null =>
  Number.isInteger(status) && status >= 200 && status <= 599
    ? null
    : 'must be a whole number from 200 to 599 (1xx statuses cannot be answered).';

/** A body given with a status that has none is a mistake, not something to drop silently. */
export const bodyProblem = (status: number, hasBody: boolean): string | null =>
  hasBody && WITHOUT_BODY.has(status) ? `must be empty with status ${status}, which has no body.` : null;
