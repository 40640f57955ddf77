import type { Clock } from '../../ports/clock.js';

/** A clock the test moves by hand. */
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

/** Real time, that the test can move forward: for instances whose workers must see time pass. */
export class ShiftedClock implements Clock {
  #offset = 0;
  now(): Date {
    return new Date(Date.now() + this.#offset);
  }
  advance(ms: number): void {
    this.#offset += ms;
  }
}
