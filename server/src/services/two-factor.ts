import { randomBytes, randomInt } from 'node:crypto';
import {
  BACKUP_CODE_ALPHABET,
  BACKUP_CODE_COUNT,
  SIGN_IN_CHALLENGE_ATTEMPTS,
  SIGN_IN_CHALLENGE_MINUTES,
  TOTP_CODE_PATTERN,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  TWO_FACTOR_MESSAGES,
} from '@tradeport/contracts';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import type { Tx } from '../storage/db';
import type { ServiceContext } from './context';
import { Refusal } from './errors';
import { hashPassword, verifyPassword } from './passwords';
import { hashToken } from './sessions';

/**
 * Two-factor sign-in (docs/architecture.md#two-factor-sign-in): TOTP secrets, the codes they give,
 * backup codes and the sign-in step between a right password and a session. The flows that use
 * them (sign-in, set-up, turning it off, resets) are in two-factor-flows.ts.
 */

const PERIOD_MS = TOTP_PERIOD_SECONDS * 1000;

/** Whether a person must sign in with a second factor: staff, unless the installation relaxed it. */
export const secondFactorRequired = (ctx: ServiceContext, role: 'trader' | 'admin'): boolean => role === 'admin' && ctx.config.staffTwoFactor === 'required';

function totpOf(ctx: ServiceContext, secret: string, account: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ issuer: ctx.config.brokerName, label: account, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: OTPAuth.Secret.fromBase32(secret) });
}

/** A new random secret (160 bits, as RFC 4226 recommends), base32. */
export const newSecret = (): string => new OTPAuth.Secret({ size: 20 }).base32;

/** What an authenticator app needs to add a secret: its link, its QR code (as an SVG path) and the text to type. */
export function setupOf(ctx: ServiceContext, secret: string, account: string) {
  const uri = totpOf(ctx, secret, account).toString();
  const modules = QRCode.create(uri, { errorCorrectionLevel: 'M' }).modules;
  // One square per dark module, joined into a single path: the page draws it at any size, in the theme's colours.
  let path = '';
  for (let y = 0; y < modules.size; y++) {
    for (let x = 0; x < modules.size; x++) if (modules.get(y, x)) path += `M${x} ${y}h1v1h-1z`;
  }
  return { secret: secret.match(/.{1,4}/g)!.join(' '), uri, issuer: ctx.config.brokerName, account, qr: { size: modules.size, path } };
}

/**
 * The 30-second step a TOTP code is right for at `now` (the step before and after count too, for a
 * phone's clock a little off), or null.
 */
export function stepOfCode(ctx: ServiceContext, secret: string, code: string, now: number): number | null {
  if (!TOTP_CODE_PATTERN.test(code)) return null;
  const delta = totpOf(ctx, secret, '').validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / PERIOD_MS) + delta;
}

/** The code a secret gives at `at` (for tests and the seeding of demo data; the server never sends one). */
export const codeAt = (ctx: ServiceContext, secret: string, at: number): string => totpOf(ctx, secret, '').generate({ timestamp: at });

/**
 * Accepts a TOTP code of the user's confirmed secret once: the step it belongs to must be later than
 * the last one accepted, and is recorded in the same guarded update, so the same code given twice,
 * even at the same moment, works once.
 */
export async function acceptTotp(ctx: ServiceContext, trx: Tx, user: { id: number; totp_secret: string | null }, code: string): Promise<boolean> {
  if (user.totp_secret === null) return false;
  const step = stepOfCode(ctx, user.totp_secret, code, ctx.now());
  if (step === null) return false;
  const r = await trx
    .updateTable('users')
    .set({ totp_last_step: step })
    .where('id', '=', user.id)
    .where('totp_secret', '=', user.totp_secret)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

// ---------------------------------------------------------------- backup codes

function newBackupCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += BACKUP_CODE_ALPHABET[randomInt(BACKUP_CODE_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A backup code as it is hashed and compared: its ten characters, without the dash. */
const bare = (code: string): string => code.replace('-', '');

/**
 * Ten new backup codes and their hashes, made before the transaction that stores them (scrypt:
 * about 50 bits each is below what a plain hash protects offline, so they are hashed as passwords).
 */
export async function newBackupCodes(ctx: ServiceContext): Promise<{ codes: string[]; hashes: string[] }> {
  const codes = Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode);
  return { codes, hashes: await Promise.all(codes.map((code) => hashPassword(bare(code), ctx.config.scryptCost))) };
}

/** The user's backup codes become these, replacing any before. */
export async function storeBackupCodes(trx: Tx, userId: number, hashes: string[], now: number): Promise<void> {
  await trx.deleteFrom('backup_codes').where('user_id', '=', userId).execute();
  await trx.insertInto('backup_codes').values(hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: now, used_at: null }))).execute();
}

/** A code checked before the transaction that spends it: a TOTP code, or the backup code it matched. */
export type GivenCode = { kind: 'totp'; code: string } | { kind: 'backup'; id: number };

/**
 * Reads a code given as a second factor: a TOTP code is checked when spent; a backup code is
 * compared with the unused ones now, outside any transaction (each comparison is a scrypt, run side
 * by side on libuv's threads). Null: no backup code matches.
 */
export async function readSecondFactor(ctx: ServiceContext, userId: number, code: string): Promise<GivenCode | null> {
  if (TOTP_CODE_PATTERN.test(code)) return { kind: 'totp', code };
  const rows = await ctx.db.selectFrom('backup_codes').select(['id', 'code_hash']).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  const matches = await Promise.all(rows.map((r) => verifyPassword(bare(code), r.code_hash)));
  const match = rows.find((_, i) => matches[i]);
  return match ? { kind: 'backup', id: match.id } : null;
}

/** Spends a code read by `readSecondFactor`, once: guarded updates, so a code raced against itself works once. */
export async function spendSecondFactor(ctx: ServiceContext, trx: Tx, user: { id: number; totp_secret: string | null }, given: GivenCode | null): Promise<'totp' | 'backup' | null> {
  if (given === null) return null;
  if (given.kind === 'totp') return (await acceptTotp(ctx, trx, user, given.code)) ? 'totp' : null;
  const r = await trx.updateTable('backup_codes').set({ used_at: ctx.now() }).where('id', '=', given.id).where('user_id', '=', user.id).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1 ? 'backup' : null;
}

export async function backupCodesLeft(ctx: ServiceContext, userId: number): Promise<number> {
  const row = await ctx.db.selectFrom('backup_codes').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Everything of a user's second factor gone: secret, one being set up, backup codes, sign-in steps. */
export async function clearSecondFactor(trx: Tx, userId: number): Promise<void> {
  await trx.updateTable('users').set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_step: null }).where('id', '=', userId).execute();
  await trx.deleteFrom('backup_codes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('sign_in_challenges').where('user_id', '=', userId).execute();
}

// ---------------------------------------------------------------- the sign-in step

export const CHALLENGE_COOKIE = 'tp_signin';
const CHALLENGE_TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const CHALLENGE_MS = SIGN_IN_CHALLENGE_MINUTES * 60_000;

export interface Challenge {
  idHash: string;
  userId: number;
  step: 'verify' | 'enrol';
  rememberMe: boolean;
  createdAt: number;
}

/** Opens the step after a right password; the token goes to the browser in an HttpOnly cookie, only its hash is kept. */
export async function openChallenge(ctx: ServiceContext, trx: Tx, userId: number, step: 'verify' | 'enrol', rememberMe: boolean): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.now();
  // One step at a time per person: a new password sign-in ends any earlier one (and expired ones go).
  await trx.deleteFrom('sign_in_challenges').where((eb) => eb.or([eb('user_id', '=', userId), eb('expires_at', '<=', now)])).execute();
  await trx.insertInto('sign_in_challenges').values({ id_hash: hashToken(token), user_id: userId, step, remember_me: rememberMe ? 1 : 0, attempts: 0, created_at: now, expires_at: now + CHALLENGE_MS }).execute();
  return token;
}

const expired = () => new Refusal('unauthenticated', TWO_FACTOR_MESSAGES.expired);

/** The step a cookie names, if it is still open and is of this kind; else the refusal that sends the person back to the password. */
export async function challengeOf(ctx: ServiceContext, token: string | undefined, step: 'verify' | 'enrol'): Promise<Challenge> {
  if (!token || !CHALLENGE_TOKEN.test(token)) throw expired();
  const row = await ctx.db.selectFrom('sign_in_challenges').selectAll().where('id_hash', '=', hashToken(token)).executeTakeFirst();
  if (!row || row.expires_at <= ctx.now() || row.attempts >= SIGN_IN_CHALLENGE_ATTEMPTS || row.step !== step) throw expired();
  return { idHash: row.id_hash, userId: row.user_id, step: row.step, rememberMe: row.remember_me === 1, createdAt: row.created_at };
}

/** Counts one code given in a step (right or wrong); refused once the step has seen its five. */
export async function countChallengeAttempt(ctx: ServiceContext, c: Challenge): Promise<void> {
  const r = await ctx.db
    .updateTable('sign_in_challenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id_hash', '=', c.idHash)
    .where('attempts', '<', SIGN_IN_CHALLENGE_ATTEMPTS)
    .where('expires_at', '>', ctx.now())
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw expired();
}

/** Ends a step as it completes, in the transaction that issues the session: false when another request completed it first. */
export async function closeChallenge(trx: Tx, c: Challenge): Promise<boolean> {
  const r = await trx.deleteFrom('sign_in_challenges').where('id_hash', '=', c.idHash).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}
