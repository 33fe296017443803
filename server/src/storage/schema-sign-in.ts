import type { Generated } from 'kysely';

/* The tables of password resets and of two-factor sign-in and its history (part of `Database`, schema.ts). */

export interface PasswordResetsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
  ip: string;
}

/** A one-time backup code of two-factor sign-in, kept as a scrypt hash (services/passwords.ts). */
export interface BackupCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

/** The step between a right password and a session: a code to give ('verify') or a second factor to set up ('enrol'). */
export interface SignInChallengesTable {
  id_hash: string;
  user_id: number;
  step: 'verify' | 'enrol';
  remember_me: number;
  attempts: number;
  created_at: number;
  expires_at: number;
}

/** One sign-in attempt of a known account (migration 0043). */
export interface SignInsTable {
  id: Generated<number>;
  user_id: number;
  at: number;
  ip: string;
  user_agent: string;
  device: string;
  /** SHA-256 of the browser's device cookie; null when it sent none it could keep. */
  device_hash: string | null;
  outcome: 'success' | 'wrong-password' | 'wrong-code' | 'locked' | 'inactive';
  detail: string;
  new_device: number;
}
