import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { clampSplit, DEFAULT_SPLITS, loadSplits, saveSplits, SPLIT_LIMITS, SPLITS_STORAGE_KEY, splitForKey } from '../src/terminal/terminal-layout';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

describe('terminal splits', () => {
  it('starts with the price table at 30% of the width', () => {
    assert.deepEqual(loadSplits(memoryStorage()), DEFAULT_SPLITS);
    assert.equal(DEFAULT_SPLITS.pricesPercent, 30);
  });

  it('remembers the splits across a reload', () => {
    const storage = memoryStorage();
    saveSplits(storage, { pricesPercent: 36.5, bottomPercent: 25 });
    assert.deepEqual(loadSplits(storage), { pricesPercent: 36.5, bottomPercent: 25 });
  });

  it('ignores a malformed or out-of-range saved layout', () => {
    assert.deepEqual(loadSplits(memoryStorage({ [SPLITS_STORAGE_KEY]: '{not json' })), DEFAULT_SPLITS);
    assert.deepEqual(loadSplits(memoryStorage({ [SPLITS_STORAGE_KEY]: '{"pricesPercent":"wide","bottomPercent":null}' })), DEFAULT_SPLITS);
    assert.deepEqual(loadSplits(memoryStorage({ [SPLITS_STORAGE_KEY]: '{"pricesPercent":99,"bottomPercent":1}' })), { pricesPercent: SPLIT_LIMITS.pricesPercent[1], bottomPercent: SPLIT_LIMITS.bottomPercent[0] });
  });

  it('keeps every split within its limits, whatever is asked', () => {
    fc.assert(
      fc.property(fc.constantFrom('pricesPercent' as const, 'bottomPercent' as const), fc.double({ noNaN: false }), (which, v) => {
        const c = clampSplit(which, v);
        assert.ok(c >= SPLIT_LIMITS[which][0] && c <= SPLIT_LIMITS[which][1]);
      }),
    );
  });

  it('moves with the keyboard: arrows by one, Page keys by ten, Home/End to the limits, Enter back to the default', () => {
    assert.equal(splitForKey('pricesPercent', 30, 'ArrowLeft'), 31);
    assert.equal(splitForKey('pricesPercent', 30, 'ArrowRight'), 29);
    assert.equal(splitForKey('bottomPercent', 32, 'ArrowUp'), 33);
    assert.equal(splitForKey('bottomPercent', 32, 'PageDown'), 22);
    assert.equal(splitForKey('pricesPercent', 44.5, 'PageUp'), SPLIT_LIMITS.pricesPercent[1]);
    assert.equal(splitForKey('pricesPercent', 30, 'Home'), SPLIT_LIMITS.pricesPercent[0]);
    assert.equal(splitForKey('bottomPercent', 50, 'Enter'), DEFAULT_SPLITS.bottomPercent);
    assert.equal(splitForKey('bottomPercent', 50, 'a'), null);
  });
});
