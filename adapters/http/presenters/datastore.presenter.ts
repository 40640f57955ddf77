import type { DatastoreEntry } from '../../../core/domain/datastore.js';
import type { Answer } from '../schemas/resources.schemas.js';
import { epochMs } from './timestamp.js';

export const presentDatastoreEntry = (entry: DatastoreEntry): Answer<'DatastoreEntry'> => ({
  key: entry.key,
  value: entry.value,
  updatedAt: epochMs(entry.updatedAt),
});
