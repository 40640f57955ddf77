import { describe, expect, it } from 'vitest';
import { isFlowStop, stopFlow } from './flow-control.js';

describe('stopFlow', () => {
  it('carries the output and is recognised', () => {
    const stop = stopFlow({ matched: false });
    expect(isFlowStop(stop)).toBe(true);
    expect(stop.output).toEqual({ matched: false });
  });

  it('cannot be forged by data that went through JSON or by look-alike objects', () => {
    const copied = JSON.parse(JSON.stringify(stopFlow({ x: 1 })));
    for (const value of [copied, { output: 1 }, { 'conveyor.stopFlow': true }, null, 'stop', 0, undefined]) {
      expect(isFlowStop(value)).toBe(false);
    }
  });
});
