import { describe, expect, it } from 'vitest';
import { number, text } from './arguments.js';
import { InvalidParametersError, parseParameters } from './validation.js';

describe('parseParameters', () => {
  const args = { find: text({ label: 'Find', required: true }), count: number({ label: 'Count', default: 1 }) };

  it('validates raw values into typed parameters, dropping the others', () => {
    expect(parseParameters(args, { find: 'x', count: '3', transform: 'replace' })).toEqual({ find: 'x', count: 3 });
    expect(parseParameters(args, { find: 2 })).toEqual({ find: '2', count: 1 });
  });

  it('throws InvalidParametersError keyed by field', () => {
    expect(() => parseParameters(args, { count: 'many' })).toThrow(InvalidParametersError);
    try {
      parseParameters(args, { count: 'many' });
    } catch (error) {
      expect((error as InvalidParametersError).fields).toEqual({
        find: ['is required.'],
        count: ['must be a number.'],
      });
    }
  });
});
