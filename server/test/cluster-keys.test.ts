import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clusterKeys, ReplayGuard, SequenceGuard } from '../src/cluster/cluster-keys';

/**
 * What keeps a signed message usable once (cluster/cluster-keys.ts): its time must be within a
 * window of the receiver's clock, and within it a nonce (forwarded calls) or a sender's sequence
 * number (the bus) is taken once. Memory stays bounded either way.
 */
describe('replay protection', () => {
  test('a forwarded call is taken once within its window, never outside it; nonces are forgotten after two windows, and at the limit a call is refused, not a nonce forgotten', () => {
    let now = 1_000_000;
    const guard = new ReplayGuard(10_000, 2, () => now);
    assert.equal(guard.accept('a', now), 'fresh');
    assert.equal(guard.accept('a', now), 'seen');
    assert.equal(guard.accept('b', now - 10_001), 'stale');
    assert.equal(guard.accept('b', now + 10_001), 'stale');
    assert.equal(guard.accept('b', now + 9_000), 'fresh');
    assert.equal(guard.accept('c', now), 'full');
    now += 20_001;
    assert.equal(guard.accept('c', now), 'fresh', 'the old nonces were forgotten');
    assert.equal(guard.accept('a', now - 9_000), 'fresh', "'a' is past its window now anyway");
  });

  test("a bus message is taken when numbered above its sender's last, inside the window; quiet senders are forgotten", () => {
    let now = 1_000_000;
    const guard = new SequenceGuard(10_000, () => now);
    assert.equal(guard.accept('s1', 1, now), true);
    assert.equal(guard.accept('s1', 1, now), false, 'the same message again');
    assert.equal(guard.accept('s1', 3, now), true, 'a gap is fine (a message lost)');
    assert.equal(guard.accept('s1', 2, now), false, 'an older one');
    assert.equal(guard.accept('s2', 1, now), true, 'senders are apart');
    assert.equal(guard.accept('s1', 4, now - 10_001), false, 'too old');
    now += 30_000;
    assert.equal(guard.accept('s3', 1, now), true);
    assert.equal(guard.accept('s1', 1, now - 30_000), false, "a forgotten sender's old message is outside the window");
  });

  test('every purpose has a key of its own, and every secret its own channels', () => {
    const a = clusterKeys('x'.repeat(32));
    const b = clusterKeys('y'.repeat(32));
    assert.equal(new Set([a.bus, a.request, a.answer].map((k) => k.toString('hex'))).size, 3);
    assert.notEqual(a.bus.toString('hex'), b.bus.toString('hex'));
    assert.match(a.channelPrefix, /^tradeport:[0-9a-f]{16}:$/);
    assert.notEqual(a.channelPrefix, b.channelPrefix);
  });
});
