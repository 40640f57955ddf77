import { describe, expect, it } from 'vitest';
import type { FieldErrors } from '../../core/domain/errors.js';
import { FailureResponse } from './failures.js';
import {
  changePasswordSchema,
  registerSchema,
  resetPasswordSchema,
  signInSchema,
  updateProfileSchema,
} from './schemas/accounts.schemas.js';
import { closedObject, emailField, fullNameField, requiredObject } from './schemas/fields.js';
import { parseInput } from './validation.js';

/** The field errors `parseInput` refused `value` with; fails the test when it accepted it. */
const refusal = (schema: Parameters<typeof parseInput>[0], value: unknown): FieldErrors => {
  try {
    parseInput(schema, value);
  } catch (error) {
    expect(error).toBeInstanceOf(FailureResponse);
    const { failure } = error as FailureResponse;
    if (failure.code !== 'input.invalid') throw new Error(`expected input.invalid, got ${failure.code}`);
    return failure.fields;
  }
  throw new Error('expected parseInput to refuse the input');
};

describe('parseInput', () => {
  it('returns the parsed output for valid input, trimmed where the schema trims', () => {
    expect(parseInput(signInSchema, { email: '  ann@example.com ', password: ' secret ' })).toEqual({
      email: 'ann@example.com',
      password: ' secret ',
    });
  });

  it("throws a FailureResponse carrying code 'input.invalid'", () => {
    let thrown: unknown;
    try {
      parseInput(signInSchema, {});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FailureResponse);
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as FailureResponse).failure.code).toBe('input.invalid');
    expect((thrown as FailureResponse).message).toBe('input.invalid');
  });

  it("reports every missing key as 'is required.'", () => {
    expect(refusal(registerSchema, {})).toEqual({
      fullName: ['is required.'],
      email: ['is required.'],
      password: ['is required.'],
    });
  });

  it("reports a wrong type as 'must be a string.'", () => {
    expect(refusal(signInSchema, { email: 42, password: ['x'] })).toEqual({
      email: ['must be a string.'],
      password: ['must be a string.'],
    });
    expect(refusal(updateProfileSchema, { fullName: null })).toEqual({ fullName: ['must be a string.'] });
  });

  it("reports an empty or blank required string as 'is required.'", () => {
    expect(refusal(signInSchema, { email: '   ', password: '' })).toEqual({
      email: ['is required.'],
      password: ['is required.'],
    });
    expect(refusal(resetPasswordSchema, { token: '', password: 'long enough' })).toEqual({
      token: ['is required.'],
    });
  });

  it('reports only the first failing rule of each field', () => {
    expect(refusal(registerSchema, { fullName: 'Ann', email: 'not-an-address', password: 'short' })).toEqual({
      email: ['must be a valid e-mail address.'],
      password: ['must be at least 8 characters.'],
    });
    expect(refusal(changePasswordSchema, { currentPassword: 'x', password: 'y'.repeat(257) })).toEqual({
      password: ['must be at most 256 characters.'],
    });
  });

  it("refuses a key that updateProfileSchema does not name with 'is not allowed.'", () => {
    expect(refusal(updateProfileSchema, { fullName: 'Ann', role: 'Admin' })).toEqual({ role: ['is not allowed.'] });
  });

  it("refuses a JSON body's own __proto__ key as a field, not as a prototype", () => {
    const errors = refusal(updateProfileSchema, JSON.parse('{"fullName":"Ann","__proto__":{"isAdmin":true}}'));
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype);
    expect(Object.entries(errors)).toEqual([['__proto__', ['is not allowed.']]]);
  });

  it('accepts an empty profile update, every key being optional', () => {
    expect(parseInput(updateProfileSchema, {})).toEqual({});
  });

  it('ignores unknown keys in a schema that is not closed', () => {
    expect(parseInput(signInSchema, { email: 'ann@example.com', password: 'pw', extra: true })).toEqual({
      email: 'ann@example.com',
      password: 'pw',
    });
  });

  it("answers 'must be an object.' under general when the body is not an object", () => {
    expect(refusal(signInSchema, null)).toEqual({ general: ['must be an object.'] });
    expect(refusal(signInSchema, 'ann@example.com')).toEqual({ general: ['must be an object.'] });
  });

  it('names a refused key that Object.prototype also has, such as constructor or __proto__', () => {
    // Found by the fuzz suite: `fields.constructor` was Object's constructor, and the answer a 500.
    expect(refusal(updateProfileSchema, { fullName: 'Ann', constructor: 0 })).toEqual({
      constructor: ['is not allowed.'],
    });
    const fields = refusal(updateProfileSchema, JSON.parse('{"__proto__": {"x": 1}}'));
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect(Object.keys(fields)).toEqual(['__proto__']);
  });

  describe('nested objects', () => {
    const nested = requiredObject({
      profile: requiredObject({
        fullName: fullNameField,
        contact: closedObject({ email: emailField }),
      }),
    });

    it('names nested fields by their dotted path', () => {
      expect(refusal(nested, { profile: { fullName: 7, contact: { email: 'nope', phone: '123' } } })).toEqual({
        'profile.fullName': ['must be a string.'],
        'profile.contact.email': ['must be a valid e-mail address.'],
        'profile.contact.phone': ['is not allowed.'],
      });
    });

    it('reports a missing or mistyped nested object at its own path', () => {
      expect(refusal(nested, {})).toEqual({ profile: ['is required.'] });
      expect(refusal(nested, { profile: 'x' })).toEqual({ profile: ['must be an object.'] });
      expect(refusal(nested, { profile: { fullName: 'Ann' } })).toEqual({ 'profile.contact': ['is required.'] });
    });

    it('returns the nested output when valid', () => {
      expect(parseInput(nested, { profile: { fullName: ' Ann ', contact: { email: 'ann@example.com' } } })).toEqual({
        profile: { fullName: 'Ann', contact: { email: 'ann@example.com' } },
      });
    });
  });
});
