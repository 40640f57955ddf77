import * as v from 'valibot';
import { searchText } from './executions.schemas.js';

/** A flow's datastore keys: those whose key or value holds `q`. */
export const datastoreListQuery = v.object({ q: v.optional(searchText) });
