import type { PeriodName } from '@tradeport/contracts/periods';

/**
 * The query keys of every resource (one hook each in queries.ts). They live here only, so a mutation or a stream event invalidates
 * exactly what it changed (see `invalidateForEvent` in stream/live-updates.ts).
 */
export const queryKeys = {
  session: ['session'] as const,
  profile: ['profile'] as const,
  deposits: ['deposits'] as const,
  withdrawals: ['withdrawals'] as const,
  activePaymentAccounts: ['payment-accounts', 'active'] as const,
  activity: ['activity'] as const,
  /** Own two-factor sign-in: on or off, backup codes left. */
  twoFactor: ['two-factor'] as const,
  /** Own recent sign-in attempts, and the sessions open now. */
  signIns: ['sign-ins'] as const,
  sessions: ['sessions'] as const,
  tradesHistory: ['trades-history'] as const,
  /** What the ledger holds besides closed positions, and History's totals: any money event changes them. */
  ledger: ['ledger'] as const,
  /** The trader's open positions and pending orders (the terminal's positions panel). */
  trades: ['trades'] as const,
  pendingOrders: ['pending-orders'] as const,
  alerts: ['alerts'] as const,
  notifications: ['notifications'] as const,
  notificationSettings: ['notification-settings'] as const,
  terminalSettings: ['terminal-settings'] as const,
  /** The trader's favourite symbols (the price table's Favourites category). */
  favourites: ['favourites'] as const,
  margins: ['margins'] as const,
  /** The trader's trading accounts with their figures (the switcher, the Trading Accounts page). */
  accounts: ['accounts'] as const,
  /** What a withdrawal may take now (balance less margin held and pending withdrawals). */
  withdrawable: ['withdrawable'] as const,
  symbols: ['symbols'] as const,
  candles: (symbol: string, period: PeriodName) => ['candles', symbol, period] as const,
  marketSummary: ['market-summary'] as const,
  countries: ['countries'] as const,
  appConfig: ['app-config'] as const,
  legalDocuments: ['legal'] as const,
  legalDocument: (id: string) => ['legal', id] as const,
};
