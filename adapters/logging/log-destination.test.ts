import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogDestination } from './log-destination.js';

const failure = (code: string) => Object.assign(new Error(code), { code });

/** A descriptor that fails with `code` while `failing()` says so, and otherwise keeps what it is given. */
const flakyOutput = (code: string) => {
  let failing = false;
  const written: string[] = [];
  return {
    written,
    fail: (on: boolean) => {
      failing = on;
    },
    write: (_fd: number, bytes: Uint8Array) => {
      if (failing) throw failure(code);
      written.push(Buffer.from(bytes).toString());
      return bytes.length;
    },
  };
};

describe('the log destination', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes lines in order to its descriptor', () => {
    dir = mkdtempSync(join(tmpdir(), 'conveyor-log-'));
    const fd = openSync(join(dir, 'out.log'), 'w');
    const destination = createLogDestination({ fd });
    for (let i = 0; i < 3; i += 1) destination.write(`line ${i}\n`);
    closeSync(fd);
    expect(readFileSync(join(dir, 'out.log'), 'utf8')).toBe('line 0\nline 1\nline 2\n');
  });

  it('on a full disk drops lines at once, then says once how many, when writing works again', () => {
    dir = mkdtempSync(join(tmpdir(), 'conveyor-log-'));
    const output = flakyOutput('ENOSPC');
    const reports: Array<[number, string]> = [];
    const destination = createLogDestination({
      write: output.write,
      onRecovered: (dropped, reason) => {
        reports.push([dropped, reason]);
        destination.write(`dropped ${dropped}\n`);
      },
    });
    destination.write('before\n');
    output.fail(true);
    for (let i = 0; i < 5; i += 1) expect(() => destination.write(`lost ${i}\n`)).not.toThrow();
    output.fail(false);
    destination.write('after\n');
    destination.write('later\n');
    expect(output.written).toEqual(['before\n', 'after\n', 'dropped 5\n', 'later\n']);
    expect(reports).toEqual([[5, 'ENOSPC']]);
  });

  it('never waits on /dev/full', () => {
    dir = mkdtempSync(join(tmpdir(), 'conveyor-log-'));
    const fd = openSync('/dev/full', 'w');
    const destination = createLogDestination({ fd });
    const began = performance.now();
    for (let i = 0; i < 1000; i += 1) destination.write(`{"msg":"line ${i}"}\n`);
    closeSync(fd);
    expect(performance.now() - began).toBeLessThan(1000);
  });

  it('holds lines back while a pipe is full, and writes them in order once it drains', async () => {
    dir = mkdtempSync(join(tmpdir(), 'conveyor-log-'));
    const output = flakyOutput('EAGAIN');
    const destination = createLogDestination({ write: output.write });
    output.fail(true);
    destination.write('one\n');
    destination.write('two\n');
    expect(output.written).toEqual([]);
    output.fail(false);
    destination.write('three\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(output.written).toEqual(['one\n', 'two\n', 'three\n']);
  });
});
