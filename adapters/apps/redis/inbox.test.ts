import { describe, expect, it } from 'vitest';
import { createInbox } from './inbox.js';

const flow = () => {
  const calls: string[] = [];
  return { calls, pause: () => calls.push('pause'), resume: () => calls.push('resume') };
};

describe('createInbox', () => {
  it('hands messages out in order, waiting for the next one', async () => {
    const inbox = createInbox<number>(10, flow());
    const first = inbox.next();
    inbox.push(1);
    inbox.push(2);
    expect(await first).toBe(1);
    expect(await inbox.next()).toBe(2);
    expect(inbox.idle).toBe(true);
  });

  it('pauses the socket once the limit waits and resumes it when all were taken', async () => {
    const control = flow();
    const inbox = createInbox<number>(3, control);
    for (const n of [1, 2, 3, 4]) inbox.push(n);
    expect(control.calls).toEqual(['pause']);
    expect(inbox.idle).toBe(false);
    expect(inbox.size).toBe(4);
    for (const n of [1, 2, 3]) expect(await inbox.next()).toBe(n);
    expect(control.calls).toEqual(['pause']);
    expect(await inbox.next()).toBe(4);
    expect(control.calls).toEqual(['pause', 'resume']);
    expect(inbox.idle).toBe(true);
  });

  it('answers what came before the end, then null, or the error it ended with', async () => {
    const closed = createInbox<number>(10, flow());
    closed.push(1);
    closed.end();
    closed.push(2);
    expect(await closed.next()).toBe(1);
    expect(await closed.next()).toBeNull();

    const broken = createInbox<number>(10, flow());
    const waiting = broken.next();
    broken.end(new Error('connection reset'));
    broken.end(new Error('later'));
    await expect(waiting).rejects.toThrow('connection reset');
  });
});
