import { describe, expect, it } from 'vitest';
import { bodyProblem, headerNameProblem, headersProblem, headerValueProblem, statusProblem } from './webhook-answer.js';

describe('what a "respond with" step may answer', () => {
  it('takes RFC 9110 tokens as header names, nothing else', () => {
    for (const name of ['X-Flow', 'content-type', "a!#$%&'*+-.^_`|~9"]) expect(headerNameProblem(name)).toBeNull();
    for (const name of ['', 'Bad Header', 'x:y', 'naïve', 'a\r\nb', '(x)'])
      expect(headerNameProblem(name)).not.toBeNull();
  });

  it('takes printable and Latin-1 values, never CR, LF, NUL or other controls', () => {
    for (const value of ['', 'text/html; charset=utf-8', 'a\tb', 'café'])
      expect(headerValueProblem('X', value)).toBeNull();
    for (const value of ['a\rb', 'a\nb', 'a\u0000b', 'a\u0007b', 'a\u007fb', '€']) {
      expect(headerValueProblem('X', value)).toMatch(/^The value of X may not/);
    }
    expect(
      headersProblem([
        { key: 'X-Ok', value: 'y' },
        { key: 'Bad Header', value: 'y' },
      ]),
    ).toMatch(/Bad Header/);
  });

  it('takes statuses from 200 to 599, and no body where the status has none', () => {
    for (const status of [200, 204, 302, 404, 599]) expect(statusProblem(status)).toBeNull();
    for (const status of [100, 101, 199, 600, 200.5, Number.NaN]) expect(statusProblem(status)).not.toBeNull();
    for (const status of [204, 205, 304]) {
      expect(bodyProblem(status, true)).toMatch(`status ${status}`);
      expect(bodyProblem(status, false)).toBeNull();
    }
    expect(bodyProblem(200, true)).toBeNull();
  });
});
