import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clusterKeys, ForwardedGuard, SequenceGuard } from '../src/cluster-keys';

/**
 * What keeps a signed message usable once (cluster/cluster-keys.ts): its time must be within a
 * window of the receiver's clock, and within it a nonce (forwarded calls) or a sender's sequence
 * number (the bus) is taken once. Memory stays bounded either way.
 */
describe('replay protection', () => {
  test('a forwarded call is taken once within its window, never outside it, in any order; memory is bounded by the senders, not the calls', () => {
    let now = 1_000_000;
    const guard = new ForwardedGuard(10_000, 64, 2, () => now);
    assert.equal(guard.accept('a', 5, now), 'fresh');
    assert.equal(guard.accept('a', 5, now), 'seen');
    assert.equal(guard.accept('a', 3, now), 'fresh', 'overtaken by a later call: still taken once');
    assert.equal(guard.accept('a', 3, now), 'seen');
    assert.equal(guard.accept('a', 6, now - 10_001), 'stale');
    assert.equal(guard.accept('a', 6, now + 10_001), 'stale');
    assert.equal(guard.accept('a', 100, now), 'fresh');
    assert.equal(guard.accept('a', 36, now), 'seen', 'more than the span below the highest: cannot be told from a replay');
    assert.equal(guard.accept('a', 37, now), 'fresh', 'within the span, never taken');
    assert.equal(guard.accept('a', 99, now), 'fresh');
    assert.equal(guard.accept('a', 99, now), 'seen');
    // Far more calls than the span from one sender, as a busy follower sends: every one is taken,
    // none twice, and nothing grows (the 200,000-nonce memory refused every call past ~6,700 a second).
    for (let seq = 101; seq < 1_000_101; seq++) assert.equal(guard.accept('a', seq, now), 'fresh');
    assert.equal(guard.accept('a', 1_000_100, now), 'seen');
    assert.equal(guard.accept('b', 1, now), 'fresh', 'senders are apart');
    assert.equal(guard.accept('c', 1, now), 'full', 'at most maxSenders');
    assert.equal(guard.remembered, 2);
    now += 20_001;
    assert.equal(guard.accept('c', 1, now), 'fresh', 'quiet senders are forgotten');
    assert.equal(guard.remembered, 1);
    assert.equal(guard.accept('a', 5, now - 9_000), 'fresh', "a forgotten sender's number is taken again only inside a new window");
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
    assert.equal(guard.remembered, 2);
    now += 30_000;
    assert.equal(guard.accept('s3', 1, now), true);
    assert.equal(guard.remembered, 1, 'the quiet senders were forgotten');
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
