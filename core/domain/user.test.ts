import { describe, expect, it } from 'vitest';
import { normalizeEmail } from './user.js';

describe('normalizeEmail', () => {
  it('lowercases the address', () => {
    expect(normalizeEmail('Alice.Smith@Example.COM')).toBe('alice.smith@example.com');
  });

  it('trims surrounding whitespace, tabs and newlines', () => {
    expect(normalizeEmail('  bob@example.com\t\n')).toBe('bob@example.com');
  });

  it('trims and lowercases together', () => {
    expect(normalizeEmail('  MiXeD@Case.Org  ')).toBe('mixed@case.org');
  });

  it('leaves an already normal address unchanged, and is idempotent', () => {
    const once = normalizeEmail(' Carol@Example.com ');
    expect(normalizeEmail('carol@example.com')).toBe('carol@example.com');
    expect(normalizeEmail(once)).toBe(once);
  });

  it('keeps inner characters such as plus tags', () => {
    expect(normalizeEmail('Dave+Tag@Example.com')).toBe('dave+tag@example.com');
  });
});
