import * as v from 'valibot';
import {
  EMAIL_MAX_LENGTH,
  FULL_NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from '../../../core/domain/user.js';

export const emailField = v.pipe(
  v.string('must be a string.'),
  v.trim(),
  v.nonEmpty('is required.'),
  v.maxLength(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters.`),
  v.email('must be a valid e-mail address.'),
);

/** A password being set: the length rules apply. */
export const newPasswordField = v.pipe(
  v.string('must be a string.'),
  v.minLength(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters.`),
  v.maxLength(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters.`),
);

/** A password being checked: any length up to the bound, so older passwords still sign in. */
export const presentedPasswordField = v.pipe(
  v.string('must be a string.'),
  v.nonEmpty('is required.'),
  v.maxLength(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters.`),
);

export const fullNameField = v.pipe(
  v.string('must be a string.'),
  v.trim(),
  v.nonEmpty('is required.'),
  v.maxLength(FULL_NAME_MAX_LENGTH, `must be at most ${FULL_NAME_MAX_LENGTH} characters.`),
);

export const tokenField = v.pipe(
  v.string('must be a string.'),
  v.nonEmpty('is required.'),
  v.maxLength(512, 'is invalid.'),
);

const objectMessage = (issue: v.BaseIssue<unknown>) =>
  issue.expected === 'never'
    ? 'is not allowed.'
    : issue.received === 'undefined'
      ? 'is required.'
      : 'must be an object.';

// valibot takes an array for an object; a JSON body must really be one.
const notAnArray = v.pipe(
  v.unknown(),
  v.check((input) => !Array.isArray(input), 'must be an object.'),
);

/** An object whose missing keys are reported as "is required." */
export const requiredObject = <E extends v.ObjectEntries>(entries: E) =>
  v.pipe(notAnArray, v.object(entries, objectMessage));

/** The same, refusing keys it does not name (no mass assignment). */
export const closedObject = <E extends v.ObjectEntries>(entries: E) =>
  v.pipe(notAnArray, v.strictObject(entries, objectMessage));

/** Any JSON object (not an array), its keys unchecked: step parameters and the like. */
export const jsonObject = v.pipe(notAnArray, v.record(v.string(), v.unknown(), 'must be an object.'));
