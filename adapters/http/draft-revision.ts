import type { Context } from 'hono';
import { invalidInput } from '../../core/domain/errors.js';
import { fail } from './failures.js';

/**
 * Optimistic concurrency on a flow's draft: a change sends the revision it was based on as
 * `If-Match` (the flow's `draftRevision`, as its `ETag` gives it); a stale one answers 409. A
 * client that sends none (Automatisch's) writes as before, last one wins.
 */
const REVISION = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/;

/** The revision `If-Match` names; undefined when there is none (or `*`). Read after the access check. */
export const ifMatch = (c: Context): number | undefined => {
  const raw = c.req.header('if-match');
  if (raw === undefined || raw.trim() === '' || raw.trim() === '*') return undefined;
  const match = REVISION.exec(raw);
  return match
    ? Number(match[1])
    : fail(invalidInput({ 'If-Match': ['must be the flow’s draftRevision as an entity tag, such as "3".'] }));
};

/** Tells the client the draft's revision after its change, for its next one. */
export const tagRevision = (c: Context, revision: number): void => {
  c.header('ETag', `"${revision}"`);
};
