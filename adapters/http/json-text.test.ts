import { describe, expect, it } from 'vitest';
import type { FailureResponse } from './failures.js';
import { jsonNestingDepth, MAX_JSON_DEPTH, parseJsonText } from './json-text.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('jsonNestingDepth', () => {
  it('counts arrays and objects, not brackets inside strings or escaped quotes', () => {
    expect(jsonNestingDepth('1')).toBe(0);
    expect(jsonNestingDepth('{"a":[{"b":[]}],"c":{}}')).toBe(4);
    expect(jsonNestingDepth('{"a":"[[[{{{","b":"\\"[[["}')).toBe(1);
    expect(jsonNestingDepth('["\\\\",[]]')).toBe(2);
  });
});

describe('parseJsonText', () => {
  it(`parses JSON nested ${MAX_JSON_DEPTH} deep, and refuses deeper with a 400 before parsing`, () => {
    expect(parseJsonText(nested(MAX_JSON_DEPTH))).toBeInstanceOf(Array);
    let thrown: unknown;
    try {
      parseJsonText(nested(MAX_JSON_DEPTH + 1));
    } catch (error) {
      thrown = error;
    }
    expect((thrown as FailureResponse).failure).toEqual({
      code: 'http.bad_request',
      message: `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`,
    });
  });
});
