import { z } from 'zod';
import type { Access } from './common';
import { failureResponse, successMessageResponse } from './common';
import * as auth from './auth';
import * as profile from './profile';
import * as money from './money-requests';
import * as admin from './admin';
import * as backOfficeMoney from './back-office-money';
import * as market from './market';
import * as trading from './trading';
import * as alerts from './alerts';
import * as history from './trading-history';
import * as site from './site';
import * as chart from './chart';
import * as favourites from './favourites';
import * as backOffice from './back-office';
import * as accounts from './accounts';

/**
 * One entry per HTTP call under `/api`: the spec's table (section 7) verbatim, plus our additions in
 * the same style. The server routes from this table and the OpenAPI document is generated from it,
 * so the two cannot drift apart; the web app calls through the same entries.
 */
export interface CallDefinition {
  method: 'GET' | 'POST';
  path: string;
  access: Access;
  summary: string;
  /** Body encoding the spec prescribes; JSON is always accepted as well. */
  encoding?: 'json' | 'multipart';
  body?: z.ZodType;
  query?: z.ZodType;
  response: z.ZodType;
  /** The call creates something; an `Idempotency-Key` header makes retries return the first result. */
  idempotent?: boolean;
  /** The answer is a file of this type (sent as an attachment) instead of JSON; refusals are still JSON. */
  produces?: 'text/csv';
}

const define = <const T extends CallDefinition>(call: T): T => call;
const emptyQuery = z.object({});

export const calls = {
  testSession: define({ method: 'GET', path: '/testSession.php', access: 'public', summary: 'Whether the caller has a session, and its account type.', query: emptyQuery, response: auth.sessionResponse }),
  login: define({ method: 'POST', path: '/login.php', access: 'public', summary: "Sign in. 'Remember me' keeps the session for 30 days.", body: auth.loginRequest, response: auth.loginResponse }),
  logout: define({ method: 'POST', path: '/logout.php', access: 'public', summary: 'End the current session.', response: auth.logoutResponse }),
  getCountries: define({ method: 'GET', path: '/getCountries.php', access: 'public', summary: 'ISO 3166 countries for the sign-up form.', query: emptyQuery, response: auth.countriesResponse }),
  requestPasswordReset: define({ method: 'POST', path: '/requestPasswordReset.php', access: 'public', summary: 'Send a one-time password-reset link (valid 30 minutes) to the email, if it belongs to an active account. The answer is the same either way.', body: auth.requestPasswordResetRequest, response: successMessageResponse }),
  resetPassword: define({ method: 'POST', path: '/resetPassword.php', access: 'public', summary: "Set a new password with a reset link's token; the token is used up and every session of the account ends.", body: auth.resetPasswordRequest, response: successMessageResponse }),
  passwordStrength: define({ method: 'POST', path: '/passwordStrength.php', access: 'public', summary: "How strong a password is by the server's policy (score 0–4, 3 needed), with the refusal it would give and advice, for the meter under password fields. Never stored or logged.", body: auth.passwordStrengthRequest, response: auth.passwordStrengthResponse }),
  registration: define({ method: 'POST', path: '/registration.php', access: 'public', summary: 'Create a trader account.', body: auth.registrationRequest, response: auth.registrationResponse }),

  getProfileDetails: define({ method: 'GET', path: '/dashboard/customer/getProfileDetails.php', access: 'signed-in', summary: 'Own profile and account totals (derived from the ledger).', query: emptyQuery, response: profile.profileResponse }),
  editProfileDetails: define({ method: 'POST', path: '/dashboard/customer/editProfileDetails.php', access: 'signed-in', summary: 'Change own profile fields.', body: profile.editProfileRequest, response: successMessageResponse }),
  changePassword: define({ method: 'POST', path: '/dashboard/customer/changePassword.php', access: 'signed-in', summary: 'Change own password; ends every other session.', body: auth.changePasswordRequest, response: successMessageResponse }),
  getActivity: define({ method: 'GET', path: '/dashboard/customer/getActivity.php', access: 'signed-in', summary: 'Own activity log, newest first.', query: auth.activityQuery, response: auth.activityResponse }),

  getPaymentGetwaysActive: define({ method: 'GET', path: '/platform/getPaymentGetwaysActive.php', access: 'signed-in', summary: "The broker's active payment accounts.", query: emptyQuery, response: money.activePaymentGatewaysResponse }),
  addDeposite: define({ method: 'POST', path: '/platform/addDeposite.php', access: 'trader', summary: 'Request a deposit (Pending until an admin decides).', body: money.addDepositRequest, response: money.createdRequestResponse, idempotent: true }),
  addWithdrawal: define({ method: 'POST', path: '/platform/addWithdrawal.php', access: 'trader', summary: 'Request a withdrawal (Pending until an admin decides).', body: money.addWithdrawalRequest, response: money.createdRequestResponse, idempotent: true }),
  getWithdrawable: define({ method: 'GET', path: '/platform/getWithdrawable.php', access: 'trader', summary: 'What a withdrawal may take now: balance less margin held and pending withdrawals.', query: emptyQuery, response: money.withdrawableResponse }),
  cancelMoneyRequest: define({ method: 'POST', path: '/platform/cancelMoneyRequest.php', access: 'trader', summary: 'Cancel an own pending deposit or withdrawal request (status 3), exactly once.', body: money.cancelMoneyRequestRequest, response: successMessageResponse }),
  getAccounts: define({ method: 'GET', path: '/platform/getAccounts.php', access: 'trader', summary: "Own trading accounts (live and demo), each with its number, kind, state, leverage and figures now; which one calls act on without `X-Trading-Account`; how many of each kind may be held.", query: emptyQuery, response: accounts.accountsResponse }),
  openAccount: define({ method: 'POST', path: '/platform/openAccount.php', access: 'trader', summary: 'Open another trading account: a demo account (with the virtual balance `demoInitialBalance`) or a live one, up to the limits `getAccounts` names.', body: accounts.openAccountRequest, response: accounts.accountChangeResponse, idempotent: true }),
  resetDemoAccount: define({ method: 'POST', path: '/platform/resetDemoAccount.php', access: 'trader', summary: "Reset an own demo account: its positions closed and pending orders cancelled (history kept), its balance back to its initial balance, with an entry that says so.", body: accounts.resetDemoRequest, response: accounts.accountChangeResponse }),
  transferFunds: define({ method: 'POST', path: '/platform/transferFunds.php', access: 'trader', summary: "Move money between two of one's own live accounts, ledgered on both sides at once, exactly once with an Idempotency-Key; refused when it would take what the source's positions need.", body: accounts.transferRequest, response: accounts.transferResponse, idempotent: true }),
  getTraderDeposites: define({ method: 'GET', path: '/platform/getTraderDeposites.php', access: 'trader', summary: 'Own deposit requests, newest first.', query: emptyQuery, response: money.depositsResponse }),
  getTraderWithdrawals: define({ method: 'GET', path: '/platform/getTraderWithdrawals.php', access: 'trader', summary: 'Own withdrawal requests, newest first.', query: emptyQuery, response: money.withdrawalsResponse }),

  getTraders: define({ method: 'GET', path: '/dashboard/admin/getTraders.php', access: 'admin', summary: 'Users with balance, totals and Online/Offline; searched, ordered and paged when asked (all of them, in id order, when not).', query: admin.tradersQuery, response: admin.tradersResponse }),
  editStatusTraders: define({ method: 'POST', path: '/dashboard/admin/editStatusTraders.php', access: 'admin', encoding: 'multipart', summary: 'Activate or deactivate a user (deactivation ends their sessions).', body: admin.editTraderStatusRequest, response: successMessageResponse }),
  editTraderPassword: define({ method: 'POST', path: '/dashboard/admin/editTraderPassword.php', access: 'admin', encoding: 'multipart', summary: "Set a user's password (ends their sessions).", body: admin.editTraderPasswordRequest, response: successMessageResponse }),
  getPendingDeposite: define({ method: 'GET', path: '/dashboard/admin/getPendingDeposite.php', access: 'admin', summary: 'Pending deposit requests, oldest first.', query: emptyQuery, response: admin.pendingDepositsResponse }),
  editStatusDeposite: define({ method: 'POST', path: '/dashboard/admin/editStatusDeposite.php', access: 'admin', summary: 'Approve (1) or reject (2) a pending deposit, exactly once.', body: admin.editDepositStatusRequest, response: successMessageResponse }),
  getPendingWithdrawal: define({ method: 'GET', path: '/dashboard/admin/getPendingWithdrawal.php', access: 'admin', summary: 'Pending withdrawal requests, oldest first.', query: emptyQuery, response: admin.pendingWithdrawalsResponse }),
  editStatusWithdrawal: define({ method: 'POST', path: '/dashboard/admin/editStatusWithdrawal.php', access: 'admin', summary: 'Approve (1, re-checks available funds) or reject (2) a pending withdrawal, exactly once.', body: admin.editWithdrawalStatusRequest, response: successMessageResponse }),
  getMoneyRequests: define({ method: 'GET', path: '/dashboard/admin/getMoneyRequests.php', access: 'admin', summary: 'All deposit and withdrawal requests with filters, newest first.', query: admin.moneyRequestsQuery, response: admin.moneyRequestsResponse }),
  getPaymentGetways: define({ method: 'GET', path: '/dashboard/admin/getPaymentGetways.php', access: 'admin', summary: "All of the broker's payment accounts.", query: emptyQuery, response: admin.paymentAccountsResponse }),
  addNewPayments: define({ method: 'POST', path: '/dashboard/admin/addNewPayments.php', access: 'admin', encoding: 'multipart', summary: 'Add a payment account (created active).', body: admin.addPaymentAccountRequest, response: money.createdRequestResponse }),
  editStatusPayments: define({ method: 'POST', path: '/dashboard/admin/editStatusPayments.php', access: 'admin', encoding: 'multipart', summary: 'Activate or deactivate a payment account.', body: admin.editPaymentAccountStatusRequest, response: successMessageResponse }),
  getMainCurrencies: define({ method: 'GET', path: '/platform/getMainCurrencies.php', access: 'signed-in', summary: 'The instrument catalogue: symbols by group with digits, contract size and volume limits.', query: emptyQuery, response: market.symbolsResponse }),
  getQuotes: define({ method: 'GET', path: '/platform/getQuotes.php', access: 'signed-in', summary: "The server's current quotes (all symbols, or `symbols=A,B`), with open/stale flags.", query: market.quotesQuery, response: market.quotesResponse }),
  getCandles: define({ method: 'GET', path: '/platform/getCandles.php', access: 'signed-in', summary: 'Candles (bid OHLC, tick volume) for a symbol and period, oldest first; `before` pages back in time.', query: market.candlesQuery, response: market.candlesResponse }),
  getMarketSummary: define({ method: 'GET', path: '/platform/getMarketSummary.php', access: 'signed-in', summary: "Every enabled instrument with its quote and its day from the daily candles: open, high, low, the previous day's close, and the change since.", query: emptyQuery, response: market.marketSummaryResponse }),
  feedTicks: define({ method: 'POST', path: '/feed/ticks', access: 'feed', summary: 'Price bridge: push ticks into the quote book. Good ticks are applied in order; each refused one is listed in `refused` (a batch with no good tick is refused).', body: market.feedTicksRequest, response: market.feedTicksResponse }),

  addTrades: define({ method: 'POST', path: '/platform/addTrades.php', access: 'trader', summary: "Open a market position at the server's price (Buy at ask, Sell at bid). Client prices are ignored.", body: trading.addTradeRequest, response: trading.addTradeResponse, idempotent: true }),
  getTrades: define({ method: 'GET', path: '/platform/getTrades.php', access: 'trader', summary: 'Own open positions with server-computed profit, bid and ask.', query: emptyQuery, response: trading.tradesResponse }),
  getProfit: define({ method: 'POST', path: '/platform/getProfit.php', access: 'trader', summary: "A position's contract size (`lots`) and the account's leverage.", body: trading.profitRequest, response: trading.profitResponse }),
  getMargins: define({ method: 'GET', path: '/platform/getMargins.php', access: 'trader', summary: 'Margin held, balance, equity, free margin and margin level.', query: emptyQuery, response: trading.marginsResponse }),
  updateTrades: define({ method: 'POST', path: '/platform/updateTrades.php', access: 'trader', summary: "Close an own position at the server's price, exactly once.", body: trading.closeTradeRequest, response: successMessageResponse }),
  closePartTrade: define({ method: 'POST', path: '/platform/closePartTrade.php', access: 'trader', summary: "Close `volume` lots of an own position (less than all of it) at the server's price: the part becomes a closed position of its own in history, with its profit and its share of the swap and commission; the rest stays open under the same ticket with its stop loss and take profit. Exactly once; with an Idempotency-Key a retry is answered again.", body: trading.closePartRequest, response: trading.closePartResponse, idempotent: true }),
  modifyTrades: define({ method: 'POST', path: '/platform/modifyTrades.php', access: 'trader', summary: 'Change the stop loss / take profit of an own open position (0 removes it).', body: trading.modifyTradeRequest, response: successMessageResponse }),
  addPendingOrder: define({ method: 'POST', path: '/platform/addPendingOrder.php', access: 'trader', summary: 'Place a Buy/Sell Limit, Stop or Stop Limit order, good till cancelled or until `expiration`.', body: trading.addPendingOrderRequest, response: trading.addPendingOrderResponse, idempotent: true }),
  getPendingOrders: define({ method: 'GET', path: '/platform/getPendingOrders.php', access: 'trader', summary: 'Own pending orders, newest placed first (`status=all`: also the filled, cancelled, expired or rejected ones; the latest 200 without paging). `status=history`: only those finished ones, newest finished first. `limit`, `before` (a `nextCursor`), `from`, `to` (epoch ms, on the time placed, or finished for `history`) page through all of them and add `nextCursor`.', query: trading.pendingOrdersQuery, response: trading.pendingOrdersResponse }),
  modifyPendingOrder: define({ method: 'POST', path: '/platform/modifyPendingOrder.php', access: 'trader', summary: "Change a pending order's price, limit price, SL/TP or expiration.", body: trading.modifyPendingOrderRequest, response: successMessageResponse }),
  cancelPendingOrder: define({ method: 'POST', path: '/platform/cancelPendingOrder.php', access: 'trader', summary: 'Cancel a pending order.', body: trading.cancelPendingOrderRequest, response: successMessageResponse }),
  getAlerts: define({ method: 'GET', path: '/platform/getAlerts.php', access: 'trader', summary: 'Own price alerts: those waiting (oldest first), then the 50 that fired or expired last.', query: emptyQuery, response: alerts.alertsResponse }),
  addAlert: define({ method: 'POST', path: '/platform/addAlert.php', access: 'trader', summary: "Set a price alert on a symbol's bid or ask reaching a level from below (`above`) or above (`below`); it fires once, on the server, with every browser closed: a notice in every open terminal and, with `byMail`, a mail. At most 100 waiting per trader.", body: alerts.addAlertRequest, response: alerts.addAlertResponse }),
  modifyAlert: define({ method: 'POST', path: '/platform/modifyAlert.php', access: 'trader', summary: "Change a waiting alert's price side, direction, level, note, expiry and mail choice.", body: alerts.modifyAlertRequest, response: successMessageResponse }),
  deleteAlert: define({ method: 'POST', path: '/platform/deleteAlert.php', access: 'trader', summary: 'Delete an own alert (waiting, fired or expired).', body: alerts.deleteAlertRequest, response: successMessageResponse }),
  getTradesHistory: define({ method: 'GET', path: '/dashboard/customer/getTradesHistory.php', access: 'trader', summary: 'Own closed positions, newest closed first, with open and close time and price, profit, swap and close reason (the newest 1,000 without paging). `limit`, `before` (a `nextCursor`), `from`, `to` (epoch ms, on the close time) page through all of them and add `nextCursor`.', query: history.historyQuery, response: history.historyResponse }),
  getOrderHistory: define({ method: 'GET', path: '/platform/getOrderHistory.php', access: 'trader', summary: 'Own orders that reached their end, newest first: market orders (filled at once, named by their position) and pending orders filled, cancelled, expired or rejected. A page of `limit` (default 100) with `nextCursor`; `before` (a `nextCursor`), `from`, `to` (epoch ms, on the time each finished).', query: history.orderHistoryQuery, response: history.orderHistoryResponse }),
  getBalanceOperations: define({ method: 'GET', path: '/dashboard/customer/getBalanceOperations.php', access: 'trader', summary: "Own ledger entries other than closed positions' profits (deposits, withdrawals, swaps, credit, adjustments, any other kind), newest first. A page of `limit` (default 100) with `nextCursor`; `before`, `from`, `to` (epoch ms).", query: history.historyQuery, response: history.balanceOperationsResponse }),
  getHistoryTotals: define({ method: 'GET', path: '/dashboard/customer/getHistoryTotals.php', access: 'trader', summary: 'Own totals over a range (`from`, `to`, epoch ms, both optional): profit of the positions closed, swaps, deposits, withdrawals, other balance operations by kind, the net change of the balance, credit and the count of closed positions.', query: history.historyTotalsQuery, response: history.historyTotalsResponse }),
  getTerminalSettings: define({ method: 'GET', path: '/platform/getTerminalSettings.php', access: 'trader', summary: "Own trading-terminal settings: one-click trading, hotkeys and the price table's change and spread columns (all off until turned on).", query: emptyQuery, response: trading.terminalSettingsResponse }),
  editTerminalSettings: define({ method: 'POST', path: '/platform/editTerminalSettings.php', access: 'trader', summary: 'Turn one or more of the terminal settings on or off (JSON booleans: oneClickTrading, hotkeys, changeColumn, spreadColumn; the settings not sent stay as they are). Answers the stored settings.', body: trading.editTerminalSettingsRequest, response: trading.terminalSettingsResponse }),
  getFavourites: define({ method: 'GET', path: '/platform/getFavourites.php', access: 'trader', summary: "Own favourite symbols (the price table's Favourites category), oldest first.", query: emptyQuery, response: favourites.favouritesResponse }),
  editFavourites: define({ method: 'POST', path: '/platform/editFavourites.php', access: 'trader', summary: `Add (\`favourite: true\`) or remove (\`false\`) a symbol of the catalogue from own favourites, at most ${favourites.MAX_FAVOURITES}; doing what is already so changes nothing. Answers the favourites as stored.`, body: favourites.editFavouritesRequest, response: favourites.favouritesResponse }),
  getChartLayout: define({ method: 'GET', path: '/platform/getChartLayout.php', access: 'trader', summary: "Own chart layout for a symbol: the terminal chart's drawings and indicators (empty until saved).", query: chart.chartLayoutQuery, response: chart.chartLayoutResponse }),
  saveChartLayout: define({ method: 'POST', path: '/platform/saveChartLayout.php', access: 'trader', summary: 'Replace own chart layout for a symbol (at most 100 drawings of the known tools with finite points, at most 20 of them text notes, at most 10 indicators). Answers the stored layout.', body: chart.saveChartLayoutRequest, response: chart.chartLayoutResponse }),
  getOpenTrades: define({ method: 'GET', path: '/dashboard/admin/getOpenTrades.php', access: 'admin', summary: 'Open positions grouped per trader; searched and paged per trader when asked (every holder, in id order, when not).', query: trading.adminOpenTradesQuery, response: trading.adminOpenTradesResponse }),
  editStatusTrades: define({ method: 'POST', path: '/dashboard/admin/editStatusTrades.php', access: 'admin', summary: "Close any trader's position at the server's price, exactly once.", body: trading.adminCloseTradeRequest, response: successMessageResponse }),

  getTraderAccounts: define({ method: 'GET', path: '/dashboard/admin/getTraderAccounts.php', access: 'admin', summary: "One trader's trading accounts with their figures now (demo ones marked; their money counts in no total).", query: accounts.traderAccountsQuery, response: accounts.accountsResponse }),
  setAccountState: define({ method: 'POST', path: '/dashboard/admin/setAccountState.php', access: 'admin', summary: 'Make a trading account active, close-only (it may close positions and cancel orders, nothing else) or disabled (it cannot trade); audited.', body: accounts.setAccountStateRequest, response: accounts.accountChangeResponse }),
  getAccountTypes: define({ method: 'GET', path: '/dashboard/admin/getAccountTypes.php', access: 'admin', summary: 'Every account type with its own values, the values its accounts trade with (its own, else the installation\'s) and how many accounts hold it.', query: emptyQuery, response: accounts.accountTypesResponse }),
  saveAccountType: define({ method: 'POST', path: '/dashboard/admin/saveAccountType.php', access: 'admin', summary: 'Create an account type (no `id`) or change one: leverage, margin-call and stop-out levels, trading mode, default, state; audited with before and after.', body: accounts.accountTypeInput, response: accounts.saveAccountTypeResponse }),
  setAccountType: define({ method: 'POST', path: '/dashboard/admin/setAccountType.php', access: 'admin', summary: "Move a trading account to another type of its kind: its leverage, levels and trading mode are the type's at once; refused when its margin level would fall to the type's stop-out; audited.", body: accounts.setAccountTypeRequest, response: accounts.accountChangeResponse }),
  adminResetDemoAccount: define({ method: 'POST', path: '/dashboard/admin/resetDemoAccount.php', access: 'admin', summary: "Reset a trader's demo account, as the trader can; audited.", body: accounts.resetDemoRequest, response: accounts.accountChangeResponse }),
  getExposure: define({ method: 'GET', path: '/dashboard/admin/getExposure.php', access: 'admin', summary: "The broker's live exposure: net position per instrument in lots and USD, the accounts with the largest floating profit and loss, and how many accounts are near margin call or stop-out.", query: backOffice.exposureQuery, response: backOffice.exposureResponse }),
  getBrokerReport: define({ method: 'GET', path: '/dashboard/admin/getBrokerReport.php', access: 'admin', summary: "The broker's report for a date range: per day and account type, new accounts, deposits, withdrawals, adjustments, commissions, swaps and its result against traders' realised trades, from the ledger.", query: backOffice.brokerReportQuery, response: backOffice.brokerReportResponse }),
  exportBrokerReport: define({ method: 'GET', path: '/dashboard/admin/exportBrokerReport.php', access: 'admin', summary: 'The broker report as a CSV file: one row per day and account type, then each type\'s totals and the total.', query: backOffice.brokerReportQuery, response: backOffice.csvFileResponse, produces: 'text/csv' }),
  getTraderDetails: define({ method: 'GET', path: '/dashboard/admin/getTraderDetails.php', access: 'admin', summary: "One user's back-office page: profile, ledger totals and live account figures, open positions, pending orders and the newest 50 activity entries.", query: trading.traderDetailsQuery, response: trading.traderDetailsResponse }),
  getClosedTrades: define({ method: 'GET', path: '/dashboard/admin/getClosedTrades.php', access: 'admin', summary: 'Closed positions of all traders (User Closed Records), newest first, with filters.', query: history.closedTradesQuery, response: history.closedTradesResponse }),

  getAppConfig: define({ method: 'GET', path: '/getAppConfig.php', access: 'public', summary: "Settings the web app needs before sign-in: the broker's chat number (`supportChatPhone`, digits, or null when there is no chat).", query: emptyQuery, response: site.appConfigResponse }),
  getLegalDocuments: define({ method: 'GET', path: '/getLegalDocuments.php', access: 'public', summary: 'The Legal Terms and Policies documents: id and title, in display order.', query: emptyQuery, response: site.legalDocumentsResponse }),
  getLegalDocument: define({ method: 'GET', path: '/getLegalDocument.php', access: 'public', summary: 'One legal document (`id=terms`) rendered to HTML (raw HTML in the source is escaped), with its title and when it last changed.', query: site.legalDocumentQuery, response: site.legalDocumentResponse }),

  addBalanceOperation: define({ method: 'POST', path: '/dashboard/admin/addBalanceOperation.php', access: 'admin', summary: "Adjust a trader's balance or credit by a signed amount with a reason the trader sees: one ledger entry (kind `adjustment` or `credit`), audited; refused when it would take the balance or credit below zero.", body: backOfficeMoney.addBalanceOperationRequest, response: backOfficeMoney.addBalanceOperationResponse, idempotent: true }),
  getTraderBalanceOperations: define({ method: 'GET', path: '/dashboard/admin/getBalanceOperations.php', access: 'admin', summary: "A trader's balance adjustments and credit operations, newest first, with reason and administrator.", query: backOfficeMoney.traderBalanceOperationsQuery, response: backOfficeMoney.traderBalanceOperationsResponse }),
  addMoneyRequestNote: define({ method: 'POST', path: '/dashboard/admin/addMoneyRequestNote.php', access: 'admin', summary: 'Add an internal note to a deposit or withdrawal request (never shown to the trader).', body: backOfficeMoney.addMoneyRequestNoteRequest, response: backOfficeMoney.addMoneyRequestNoteResponse }),
  getMoneyRequestNotes: define({ method: 'GET', path: '/dashboard/admin/getMoneyRequestNotes.php', access: 'admin', summary: "A request's internal notes, oldest first, with author and time.", query: backOfficeMoney.moneyRequestNotesQuery, response: backOfficeMoney.moneyRequestNotesResponse }),
  getWithdrawalRisk: define({ method: 'GET', path: '/dashboard/admin/getWithdrawalRisk.php', access: 'admin', summary: 'The live account figures and open exposure of every trader with a pending withdrawal, for the approver.', query: emptyQuery, response: backOfficeMoney.withdrawalRiskResponse }),
  getAuditLog: define({ method: 'GET', path: '/dashboard/admin/getAuditLog.php', access: 'admin', summary: 'Admin actions with before/after, newest first; filtered by who acted, whom it was about, the action and UTC days when asked.', query: admin.auditQuery, response: admin.auditResponse }),

  exportMoneyRequests: define({ method: 'GET', path: '/dashboard/admin/exportMoneyRequests.php', access: 'admin', summary: 'Every deposit and withdrawal request matching the filters of getMoneyRequests (no paging), newest first, as a CSV file; refused when more than 100,000 match.', query: backOffice.moneyRequestsExportQuery, response: backOffice.csvFileResponse, produces: 'text/csv' }),
  exportClosedTrades: define({ method: 'GET', path: '/dashboard/admin/exportClosedTrades.php', access: 'admin', summary: 'Every closed position matching the filters of getClosedTrades (no paging), newest closed first, as a CSV file; refused when more than 100,000 match.', query: backOffice.closedTradesExportQuery, response: backOffice.csvFileResponse, produces: 'text/csv' }),
  exportAuditLog: define({ method: 'GET', path: '/dashboard/admin/exportAuditLog.php', access: 'admin', summary: 'Every audit entry matching the filters of getAuditLog (no paging), newest first, as a CSV file; refused when more than 100,000 match.', query: backOffice.auditExportQuery, response: backOffice.csvFileResponse, produces: 'text/csv' }),
  editPayments: define({ method: 'POST', path: '/dashboard/admin/editPayments.php', access: 'admin', encoding: 'multipart', summary: "Change a payment account's name, number and instructions (the rules of adding one); audit-logged.", body: backOffice.editPaymentAccountRequest, response: successMessageResponse }),
  modifyTraderOrder: define({ method: 'POST', path: '/dashboard/admin/modifyTraderOrder.php', access: 'admin', summary: "Change a trader's pending order (price, limit price, SL/TP, expiration) with the rules of the trader's own change; audit-logged, and the trader's screens follow at once.", body: backOffice.adminModifyOrderRequest, response: successMessageResponse }),
  cancelTraderOrder: define({ method: 'POST', path: '/dashboard/admin/cancelTraderOrder.php', access: 'admin', summary: "Cancel a trader's pending order, exactly once; audit-logged, and the trader's screens follow at once.", body: backOffice.adminCancelOrderRequest, response: successMessageResponse }),
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export { failureResponse };
