import type { Clock } from '../../ports/clock.js';

/** A clock a test moves by hand. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start = new Date('2026-11-22T10:00:00.000Z')) {
    this.#now = start.getTime();
  }
  now(): Date {
    return new Date(this.#now);
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}
