import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uniqueViolationField } from './unique-violation.js';

const sqliteError = (code: string, message: string) => Object.assign(new Error(message), { code });
const postgresError = (detail?: string) =>
  Object.assign(new Error('duplicate key value violates unique constraint "users_email_unique"'), {
    code: '23505',
    ...(detail === undefined ? {} : { detail }),
  });

/** Runs `statement` and returns what it threw; fails the test when it does not throw. */
const thrownBy = (statement: () => unknown): unknown => {
  try {
    statement();
  } catch (error) {
    return error;
  }
  throw new Error('expected the statement to throw');
};

describe('uniqueViolationField', () => {
  describe('SQLite errors', () => {
    it('names the column of a unique constraint', () => {
      const error = { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: users.email' };
      expect(uniqueViolationField(error)).toBe('email');
    });

    it('turns a snake_case column into camelCase', () => {
      expect(
        uniqueViolationField(sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed: users.full_name')),
      ).toBe('fullName');
      expect(
        uniqueViolationField(
          sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed: app_configs.app_key_name'),
        ),
      ).toBe('appKeyName');
    });

    it('handles a primary-key violation', () => {
      const error = sqliteError('SQLITE_CONSTRAINT_PRIMARYKEY', 'UNIQUE constraint failed: users.id');
      expect(uniqueViolationField(error)).toBe('id');
    });

    it('names the first column of a composite constraint', () => {
      const error = sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed: steps.flow_id, steps.position');
      expect(uniqueViolationField(error)).toBe('flowId');
    });

    it("answers 'general' when the message names no column", () => {
      expect(
        uniqueViolationField(sqliteError('SQLITE_CONSTRAINT_UNIQUE', "UNIQUE constraint failed: index 'lx'")),
      ).toBe('general');
      expect(uniqueViolationField({ code: 'SQLITE_CONSTRAINT_UNIQUE' })).toBe('general');
    });
  });

  describe('Postgres errors', () => {
    it('names the column from the detail', () => {
      const error = { code: '23505', detail: 'Key (email)=(a@b.c) already exists.' };
      expect(uniqueViolationField(error)).toBe('email');
      expect(uniqueViolationField(postgresError('Key (email)=(a@b.c) already exists.'))).toBe('email');
    });

    it('names the column inside an expression index', () => {
      expect(uniqueViolationField(postgresError('Key (lower(email))=(a@b.c) already exists.'))).toBe('email');
      expect(uniqueViolationField(postgresError('Key (lower(email::text))=(a@b.c) already exists.'))).toBe('email');
    });

    it('turns snake_case and quoted columns into camelCase field names', () => {
      expect(uniqueViolationField(postgresError('Key (full_name)=(Ann) already exists.'))).toBe('fullName');
      expect(uniqueViolationField(postgresError('Key ("full_name")=(Ann) already exists.'))).toBe('fullName');
    });

    it('names the first column of a composite key', () => {
      expect(uniqueViolationField(postgresError('Key (flow_id, internal_id)=(f, 1) already exists.'))).toBe('flowId');
    });

    it("answers 'general' when the detail is missing or unrecognised", () => {
      expect(uniqueViolationField(postgresError())).toBe('general');
      expect(uniqueViolationField({ code: '23505' })).toBe('general');
      expect(uniqueViolationField(postgresError('something else entirely'))).toBe('general');
    });
  });

  describe('anything else', () => {
    it.each([
      ['null', null],
      ['undefined', undefined],
      ['a string', 'UNIQUE constraint failed: users.email'],
      ['a number', 23505],
      ['a plain Error', new Error('UNIQUE constraint failed: users.email')],
      ['a foreign-key error', sqliteError('SQLITE_CONSTRAINT_FOREIGNKEY', 'FOREIGN KEY constraint failed')],
      ['a not-null error', sqliteError('SQLITE_CONSTRAINT_NOTNULL', 'NOT NULL constraint failed: users.email')],
      ['a Postgres foreign-key error', { code: '23503', detail: 'Key (role_id)=(x) is not present in table.' }],
      ['a numeric code', { code: 23505, detail: 'Key (email)=(a@b.c) already exists.' }],
    ])('returns null for %s', (_, error) => {
      expect(uniqueViolationField(error)).toBeNull();
    });
  });

  describe('round-trip through better-sqlite3', () => {
    let db: Database.Database;
    beforeEach(() => {
      db = new Database(':memory:');
      db.exec(`
        create table users (id text primary key, email text not null, full_name text not null unique, deleted_at text);
        create unique index users_email_unique on users (email) where deleted_at is null;
      `);
      db.prepare('insert into users (id, email, full_name) values (?, ?, ?)').run('1', 'a@b.c', 'Ann');
    });
    afterEach(() => db.close());

    const insert = (id: string, email: string, fullName: string) => () =>
      db.prepare('insert into users (id, email, full_name) values (?, ?, ?)').run(id, email, fullName);

    it('recognises a real duplicate in a unique index', () => {
      expect(uniqueViolationField(thrownBy(insert('2', 'a@b.c', 'Bob')))).toBe('email');
    });

    it('recognises a real duplicate in a snake_case unique column', () => {
      expect(uniqueViolationField(thrownBy(insert('2', 'b@b.c', 'Ann')))).toBe('fullName');
    });

    it('recognises a real duplicate primary key', () => {
      expect(uniqueViolationField(thrownBy(insert('1', 'b@b.c', 'Bob')))).toBe('id');
    });

    it('returns null for a real error that is not a unique violation', () => {
      const error = thrownBy(() => db.prepare('insert into users (id, email) values (?, ?)').run('3', 'c@b.c'));
      expect(uniqueViolationField(error)).toBeNull();
    });
  });
});
