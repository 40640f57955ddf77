import type { Clock } from '../../ports/clock.js';

export { ManualClock } from '../../adapters/auth/manual-clock.js';

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
