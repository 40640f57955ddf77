import { fail } from './failures.js';

/**
 * How deep a request's JSON may nest. Far beyond any real payload; well short of the depth at
 * which storing it (JSON.stringify, which recurses) overflows the stack, some 3,000 levels.
 */
export const MAX_JSON_DEPTH = 256;

/** The deepest nesting of arrays and objects in JSON text: one pass over it, no recursion. */
export const jsonNestingDepth = (text: string): number => {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i += 1; // a backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
    } else if (char === 0x5d || char === 0x7d) depth -= 1;
  }
  return deepest;
};

/** A request body's JSON value; text that is not JSON, or nests too deep to handle, is a 400. */
export const parseJsonText = (text: string): unknown => {
  if (jsonNestingDepth(text) > MAX_JSON_DEPTH)
    return fail({ code: 'http.bad_request', message: `The request body nests deeper than ${MAX_JSON_DEPTH} levels.` });
  try {
    return JSON.parse(text);
  } catch {
    return fail({ code: 'http.bad_request', message: 'The request body is not valid JSON.' });
  }
};
