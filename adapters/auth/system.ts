import { randomUUID } from 'node:crypto';
import type { Clock } from '../../ports/clock.js';
import type { IdGenerator } from '../../ports/ids.js';
import { orderedId } from '../ordered-ids.js';

export const systemClock: Clock = { now: () => new Date() };
export const uuidGenerator: IdGenerator = { next: () => randomUUID(), ordered: orderedId };
