import type { ColumnType, Generated } from 'kysely';
import type { NotificationSettingsTable, NotificationsTable, OrdersTable, PositionsTable, PriceAlertsTable, SwapDeferredTable, SwapRolloversTable } from './schema-trading';
import type { FavouriteSymbolsTable, TerminalSettingsTable } from './schema-terminal';
import type { BackupCodesTable, PasswordResetsTable, SignInChallengesTable, SignInsTable } from './schema-sign-in';

/** Table shapes as Kysely sees them. Times are epoch milliseconds; money is integer cents. */
export interface UsersTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  /** The name's sort key (domain/sort-key.ts), written with the name. */
  sort_name: string;
  phone_no: string;
  country_id: number | null;
  date_of_birth: string;
  nationality: string;
  role: 'trader' | 'admin';
  /** A back-office user's roles, comma-joined (migration 0040; contracts staff.ts); '' for a trader. */
  staff_roles: Generated<string>;
  is_active: number;
  is_reserved: number;
  created_at: number;
  updated_at: number;
  last_seen_at: number | null;
  /** Two-factor sign-in (migration 0042): the confirmed TOTP secret (base32) and when it was confirmed. */
  totp_secret: string | null;
  totp_enabled_at: number | null;
  /** A secret being set up, until its first code confirms it. */
  totp_pending_secret: string | null;
  /** The last 30-second step a code was accepted for: a code works once. */
  totp_last_step: number | null;
}

export type AccountKind = 'live' | 'demo';
/** Active; close-only (it may close positions and cancel orders, nothing else); disabled (nothing). */
export type AccountState = 'active' | 'close-only' | 'disabled';

/** A trading account (docs/design.md#trading-accounts): its money and settings; its records name it. */
/** What a broker sells (migration 0023): a null value is the installation's (docs/design.md#account-types). */
export interface AccountTypesTable {
  id: Generated<number>;
  name: string;
  kind: AccountKind;
  leverage: number | null;
  margin_call_level: number | null;
  stop_out_level: number | null;
  trading_mode: 'full' | 'close-only' | 'disabled';
  is_default: number;
  state: 'active' | 'disabled';
  /** Commission per deal (migration 0025): USD cents per lot or per million USD traded; both null: none. */
  commission_basis: Generated<'lot' | 'million' | null>;
  commission_cents: Generated<number | null>;
  created_at: number;
  updated_at: number;
}

/** The most leverage a type allows on an instrument group or instrument (migration 0028). */
export interface AccountTypeLeverageTable {
  account_type_id: number;
  scope: 'group' | 'symbol';
  name: string;
  max_leverage: number;
}

/** A type's own swaps on an instrument, points per lot a day (migration 0030). */
export interface AccountTypeSwapsTable {
  account_type_id: number;
  symbol: string;
  swap_long: number;
  swap_short: number;
}

/** A type's own spread markup on an instrument, in points (migration 0036). */
export interface AccountTypeMarkupsTable {
  account_type_id: number;
  symbol: string;
  points: number;
}

/** The spread markup one deal earned the broker (migration 0037). */
export interface DealMarkupsTable {
  id: Generated<number>;
  position_id: number;
  account_id: number;
  account_type_id: number;
  deal: 'open' | 'close';
  symbol: string;
  /** The half of the markup this deal's side paid, in points. */
  points: number;
  volume: number;
  /** In USD cents at the deal's conversion rate. */
  cents: ColumnType<number | string, number, number>;
  created_at: number;
}

/** An instrument a type may trade (migration 0027); a type with none listed may trade every one. */
export interface AccountTypeInstrumentsTable {
  account_type_id: number;
  symbol: string;
}

/** An account type's terms for one instrument (migration 0026): a commission in place of the type's. */
export interface AccountTypeSymbolsTable {
  account_type_id: number;
  symbol: string;
  commission_basis: 'lot' | 'million';
  commission_cents: number;
}

export interface TradingAccountsTable {
  id: Generated<number>;
  /** The number people see (domain/account-number.ts); never the id. */
  number: number;
  user_id: number;
  kind: AccountKind;
  currency: string;
  leverage: number;
  balance_cents: number;
  credit_cents: number;
  state: AccountState;
  /** A demo account's virtual balance at opening (what a reset restores); null for live. */
  initial_balance_cents: number | null;
  /** Its account type (account_types). */
  account_type_id: number;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  persistent: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  ip: string;
  user_agent: string;
  revoked_at: number | null;
}

export interface LoginThrottleTable {
  email: string;
  failures: number;
  locked_until: number | null;
  updated_at: number;
}

export interface CountriesTable {
  id: number;
  name: string;
  code: string;
}

export interface PaymentAccountsTable {
  id: Generated<number>;
  name: string;
  number: string;
  more_info: string;
  is_active: number;
  created_at: number;
  created_by: number | null;
}

export type MoneyRequestKind = 'deposit' | 'withdrawal';
/** '0' Pending, '1' Approved, '2' Rejected, '3' Cancelled by the trader. */
export type MoneyRequestStatus = '0' | '1' | '2' | '3';

export interface MoneyRequestsTable {
  id: Generated<number>;
  kind: MoneyRequestKind;
  user_id: number;
  account_id: number;
  payment_account_id: number | null;
  account_ref: string;
  amount_cents: number;
  status: MoneyRequestStatus;
  created_at: number;
  decided_at: number | null;
  decided_by: number | null;
  /** Why it was rejected, shown to the trader (null: none given); optional on insert. */
  reject_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** A withdrawal needing two approvals: who gave the first, and when (null until then). */
  first_approved_by: ColumnType<number | null, number | null | undefined, number | null>;
  first_approved_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** An administrator's manual balance adjustment or credit operation; its ledger entry refers to it. */
export interface BalanceOperationsTable {
  id: Generated<number>;
  user_id: number;
  account_id: number;
  kind: 'adjustment' | 'credit';
  /** Signed: positive added, negative removed. */
  amount_cents: number;
  reason: string;
  created_by: number;
  created_at: number;
}

/** Administrators' internal notes on a money request; never shown to the trader. */
export interface MoneyRequestNotesTable {
  id: Generated<number>;
  request_id: number;
  author_id: number;
  note: string;
  created_at: number;
}

/** `transfer`: between a person's live accounts; `demo`: a demo account's virtual money (opening, reset). */
export type LedgerKind = 'deposit' | 'withdrawal' | 'credit' | 'trade' | 'swap' | 'commission' | 'adjustment' | 'transfer' | 'demo';

/** Money moved between two live trading accounts of one person (docs/design.md#trading-accounts). */
export interface TransfersTable {
  id: Generated<number>;
  user_id: number;
  from_account_id: number;
  to_account_id: number;
  amount_cents: number;
  created_at: number;
}

export interface LedgerEntriesTable {
  id: Generated<number>;
  user_id: number;
  account_id: number;
  kind: LedgerKind;
  amount_cents: number;
  balance_after_cents: number;
  ref_type: string;
  ref_id: string;
  memo: string;
  created_at: number;
  /** The account's type when it was posted (migration 0029), for the broker's reports. */
  account_type_id: Generated<number | null>;
}

export interface ActivityLogTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  details: string;
  status: string;
  ip: string;
  created_at: number;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  action: string;
  target_type: string;
  target_id: string;
  before_json: string;
  after_json: string;
  ip: string;
  created_at: number;
  /** The user the action was about (the user itself, or the owner of the position, order or money request); null for payment accounts. */
  subject_user_id: number | null;
  /** The trading account it was about (of the position, order, money request or balance operation, or the account itself); null otherwise. */
  subject_account_id: number | null;
}

export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  route: string;
  request_hash: string;
  response_body: string;
  created_at: number;
}

export interface InstrumentsTable {
  id: Generated<number>;
  symbol: string;
  description: string;
  group_name: 'Forex' | 'Crypto' | 'Stocks' | 'Metals';
  base_currency: string;
  quote_currency: string;
  digits: number;
  contract_size: number;
  volume_min: number;
  volume_step: number;
  volume_max: number;
  calc_mode: 'forex' | 'cfd';
  sessions_json: string;
  /** The group's holiday calendar from the catalogue (JSON), or null. */
  calendar_json: string | null;
  swap_long: number;
  swap_short: number;
  spread_markup: number;
  sim_json: string;
  feeds_json: string;
  sort_order: number;
  /** Set in the back office (migration 0038): full, close-only or disabled. */
  trading_mode: 'full' | 'close-only' | 'disabled';
  /** Margin is the notional at the account's leverage times this (migration 0039); 1 by default. */
  margin_rate: number;
  updated_at: number;
}

export interface CandlesTable {
  symbol: string;
  period: string;
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface LastQuotesTable {
  symbol: string;
  bid: number;
  ask: number;
  time: number;
}

export interface Database {
  users: UsersTable;
  account_types: AccountTypesTable;
  account_type_symbols: AccountTypeSymbolsTable;
  account_type_instruments: AccountTypeInstrumentsTable;
  account_type_leverage: AccountTypeLeverageTable;
  account_type_swaps: AccountTypeSwapsTable;
  account_type_markups: AccountTypeMarkupsTable;
  deal_markups: DealMarkupsTable;
  trading_accounts: TradingAccountsTable;
  transfers: TransfersTable;
  sessions: SessionsTable;
  login_throttle: LoginThrottleTable;
  countries: CountriesTable;
  payment_accounts: PaymentAccountsTable;
  money_requests: MoneyRequestsTable;
  money_request_notes: MoneyRequestNotesTable;
  balance_operations: BalanceOperationsTable;
  ledger_entries: LedgerEntriesTable;
  activity_log: ActivityLogTable;
  audit_log: AuditLogTable;
  idempotency_keys: IdempotencyKeysTable;
  instruments: InstrumentsTable;
  candles: CandlesTable;
  last_quotes: LastQuotesTable;
  positions: PositionsTable;
  swap_rollovers: SwapRolloversTable;
  swap_deferred: SwapDeferredTable;
  orders: OrdersTable;
  price_alerts: PriceAlertsTable;
  notifications: NotificationsTable;
  notification_settings: NotificationSettingsTable;
  password_resets: PasswordResetsTable;
  backup_codes: BackupCodesTable;
  sign_in_challenges: SignInChallengesTable;
  sign_ins: SignInsTable;
  terminal_settings: TerminalSettingsTable;
  chart_layouts: ChartLayoutsTable;
  legal_acceptances: LegalAcceptancesTable;
  favourite_symbols: FavouriteSymbolsTable;
}

/** One row per user and symbol whose terminal chart layout was saved; `layout` is the JSON of a ChartLayout. */
export interface ChartLayoutsTable {
  user_id: number;
  symbol: string;
  layout: string;
  updated_at: number;
}


/** A legal document a trader accepted at sign-up, with the version (digest) of the text accepted. */
export interface LegalAcceptancesTable {
  id: Generated<number>;
  user_id: number;
  document_id: string;
  version: string;
  accepted_at: number;
  ip: string;
}
