import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type BinaryManifest, cacheRoot, extractFiles } from './binary-files.js';

const manifest: BinaryManifest = {
  version: '1.2.3',
  hash: 'abc',
  files: [
    { asset: 'a.node', path: 'a.node' },
    { asset: 'web/index.html', path: 'web/index.html' },
  ],
};

const assets: Record<string, string> = { 'a.node': 'addon', 'web/index.html': '<html>' };

describe('the single executable’s files', () => {
  let root = '';
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const scratch = () => {
    root = mkdtempSync(join(tmpdir(), 'conveyor-binary-files-'));
    return join(root, 'cache', 'conveyor');
  };
  const reading = (onRead: (asset: string) => void = () => {}) => {
    const read: string[] = [];
    return {
      read,
      asset: (asset: string) => {
        read.push(asset);
        onRead(asset);
        return new TextEncoder().encode(assets[asset]).buffer as ArrayBuffer;
      },
    };
  };

  it('are written once per version and build, into a folder named by both', () => {
    const cache = scratch();
    const first = reading();
    const folder = extractFiles(manifest, first.asset, cache);
    expect(folder).toBe(join(cache, '1.2.3-abc'));
    expect(readFileSync(join(folder, 'web', 'index.html'), 'utf8')).toBe('<html>');
    expect(first.read).toEqual(['a.node', 'web/index.html']);

    const second = reading();
    expect(extractFiles(manifest, second.asset, cache)).toBe(folder);
    expect(second.read).toEqual([]);
  });

  it('are written again when a file went missing', () => {
    const cache = scratch();
    const folder = extractFiles(manifest, reading().asset, cache);
    unlinkSync(join(folder, 'a.node'));
    const again = reading();
    extractFiles(manifest, again.asset, cache);
    expect(again.read).toHaveLength(2);
    expect(readFileSync(join(folder, 'a.node'), 'utf8')).toBe('addon');
  });

  it('of a process that lost the race to another are the other’s, with nothing left behind', () => {
    const cache = scratch();
    const target = join(cache, '1.2.3-abc');
    // Another process renames its complete folder into place while this one writes.
    const racing = reading((asset) => {
      if (asset !== 'web/index.html') return;
      mkdirSync(join(target, 'web'), { recursive: true });
      writeFileSync(join(target, 'a.node'), 'theirs');
      writeFileSync(join(target, 'web', 'index.html'), 'theirs');
    });
    expect(extractFiles(manifest, racing.asset, cache)).toBe(target);
    expect(readFileSync(join(target, 'a.node'), 'utf8')).toBe('theirs');
    expect(readFileSync(join(target, 'web', 'index.html'), 'utf8')).toBe('theirs');
    // The loser's temporary folder is gone.
    expect(readdirSync(cache)).toEqual(['1.2.3-abc']);
  });

  it('go to CONVEYOR_CACHE_DIR, else XDG_CACHE_HOME/conveyor, else ~/.cache/conveyor', () => {
    expect(cacheRoot({ CONVEYOR_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }, '/home/ann')).toBe('/c');
    expect(cacheRoot({ XDG_CACHE_HOME: '/x' }, '/home/ann')).toBe('/x/conveyor');
    expect(cacheRoot({ XDG_CACHE_HOME: '' }, '/home/ann')).toBe('/home/ann/.cache/conveyor');
  });
});
