import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Clock } from '../../ports/clock.js';
import type { IdGenerator } from '../../ports/ids.js';

export const systemClock: Clock = { now: () => new Date() };
export const uuidGenerator: IdGenerator = { next: () => randomUUID(), ordered: () => uuidv7() };
