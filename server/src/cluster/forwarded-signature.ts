import { randomBytes } from 'node:crypto';
import { mac, sha256, type ClusterKeys } from '../cluster-keys';

/**
 * The wire format of a forwarded call and of the leader's answer (docs/architecture.md, "Trust
 * between instances", "Forwarded calls"): the headers each carries, and the text each MAC covers.
 * The follower signs with it (leader-call.ts), the leader checks and signs its answer (forwarding.ts).
 */

/**
 * Marks a call one instance forwarded to another (it is never forwarded again), and signs it:
 * `v2 <sender> <number> <epoch ms> <MAC>`, the MAC over the method, the URL, the sending
 * follower's id, the call's number from it, the time, the body's hash and the headers passed on
 * (`requestText`). The leader carries out nothing that arrives with this header unless the
 * signature verifies, is recent and its number has not been taken from that sender before.
 */
export const FORWARDED_HEADER = 'x-tradeport-forwarded';
/** The client's address as the forwarding instance saw it (covered by the request's signature; see `Forwarder.clientIp`). */
export const CLIENT_IP_HEADER = 'x-tradeport-client-ip';
/**
 * The leader's signature on its answer to a forwarded call: the MAC over the status, the call's
 * MAC and the body's hash. A follower passes on no answer without it — whoever took the call
 * in the leader's stead cannot make one.
 */
export const ANSWER_HEADER = 'x-tradeport-answer';
/**
 * How far a forwarded call's time may be from the leader's clock: it is sent as soon as it is
 * signed, so this is the clocks' difference and the network's delay, with room to spare.
 */
export const SIGNATURE_VALID_MS = 15_000;
/** The headers a forwarded call carries: who is calling, from where, and the call's own. */
export const PASSED_ON = ['host', 'cookie', 'origin', 'referer', 'user-agent', 'accept', 'accept-language', 'authorization', 'idempotency-key', 'x-trading-account', 'x-forwarded-proto'];
/** The headers a forwarded call's signature covers: every one passed on, and the client's address. */
const SIGNED = [...PASSED_ON, CLIENT_IP_HEADER];
/**
 * What a forwarded call's MAC covers: everything the leader acts on — method, URL, body, the
 * headers passed on (the session cookie, the Idempotency-Key, the client's address) — with the
 * time, sender and number that make it usable once. The body is its JSON text as the follower sends it;
 * the leader, which has parsed it, writes it again (JSON text written by JSON.stringify reads and
 * writes back to the same text).
 */
export function requestText(method: string, url: string, at: number, sender: string, seq: number, body: string, headers: Record<string, string | string[] | undefined>): string {
  const named = SIGNED.map((name) => {
    const value = headers[name];
    return `${name}:${Array.isArray(value) ? value.join(', ') : (value ?? '')}`;
  });
  return [method, url, String(at), sender, String(seq), sha256(body), ...named].join('\n');
}

/**
 * FORWARDED_HEADER for call number `seq` of follower `sender` (`headers`: those passed on, with
 * CLIENT_IP_HEADER), signed with the cluster's request key; `body` as `bodyText` gives it.
 */
export function forwardedHeader(
  keys: ClusterKeys,
  method: string,
  url: string,
  body: string,
  headers: Record<string, string | string[] | undefined>,
  at = Date.now(),
  sender = randomBytes(9).toString('base64url'),
  seq = 1,
): string {
  return `v2 ${sender} ${seq} ${at} ${mac(keys.request, requestText(method, url, at, sender, seq, body, headers))}`;
}

/** The body text a forwarded call is signed over (nothing for a read). */
export function bodyText(method: string, body: unknown): string {
  return method === 'GET' || method === 'HEAD' ? '' : JSON.stringify(body ?? {});
}

/** The headers of the leader's answer the client gets (each covered by the answer's signature). */
export const PASSED_BACK = ['content-type', 'retry-after', 'set-cookie', 'cache-control'];

/**
 * What the leader's answer MAC covers: the status, the MAC of the call it answers (so it answers
 * that call and no other: another number, another URL, another body), the body's hash and every
 * header the follower passes back to the client.
 */
export function answerText(status: number, requestMac: string, body: string | Buffer, headers: (name: string) => unknown): string {
  const named = PASSED_BACK.map((name) => {
    const value = headers(name);
    // Always as a list: Node hands the follower every set-cookie as one, whether the leader set one
    // cookie (a string) or several.
    return `${name}:${value === undefined ? '' : JSON.stringify([value].flat().map(String))}`;
  });
  return [String(status), requestMac, sha256(body), ...named].join('\n');
}

/** The ANSWER_HEADER of an answer with `status`, `body` and `headers` to the forwarded call whose MAC is `requestMac`. */
export function answerSignature(keys: ClusterKeys, status: number, requestMac: string, body: string | Buffer, headers: (name: string) => unknown): string {
  return mac(keys.answer, answerText(status, requestMac, body, headers));
}

/** A forwarded call's header taken apart, if it has the header's shape (signed or not). */
export function parseForwarded(header: unknown): { sender: string; seq: number; at: number; given: string } | null {
  if (typeof header !== 'string') return null;
  const parts = header.split(' ');
  if (parts.length !== 5 || parts[0] !== 'v2') return null;
  const [, sender, seq, at, given] = parts as [string, string, string, string, string];
  if (!/^[A-Za-z0-9_-]{8,32}$/.test(sender) || !/^\d{1,15}$/.test(seq) || !/^\d{1,15}$/.test(at) || !/^[A-Za-z0-9_-]{43}$/.test(given)) return null;
  return { sender, seq: Number(seq), at: Number(at), given };
}
