import { createBrowserRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { onUnauthorized } from './api/client';
import { queryClient } from './api/query-client';
import { profileQuery, tradesHistoryQuery } from './api/query-options';
import { currentSession, requirePermission, requireSession, requireTrader, roleOf, signedOutOnly } from './auth/session';
import { pagePermission } from './dashboard/page-permissions';
import { SignInPage } from './auth/sign-in-page';
import { LoadingScreen } from './ui/loading-screen';
import { RootLayout } from './ui/root-layout';
import { RouteError } from './ui/route-error-boundary';

/**
 * Every screen of the spec (section 2). The sign-in page, where most visits start, is part of the
 * first script, so it shows without a second round trip; every other route module is loaded on
 * demand, so sign-in downloads only what it shows. Guards run as loaders: 'Loading...' shows while
 * the session is checked, and a page never renders for someone who may not see it.
 */
const page = (load: () => Promise<{ Component: React.ComponentType }>) => ({ lazy: load });

/**
 * The dashboard home's small answers (the profile's figures, the trade history), asked for as soon
 * as the session is known instead of after the page has rendered. Not awaited: the page shows its
 * skeletons and fills in as each answer lands. The market panel's candles (some 37 KB) and the
 * symbol list are not: on a phone's slow link they shared it with the page's own modules and held
 * back its heading; the panel asks for them as it mounts, a frame after the heading shows.
 */
async function prefetchHome(): Promise<null> {
  const session = await currentSession();
  if (!session) return null;
  void queryClient.prefetchQuery(profileQuery);
  if (roleOf(session) === 'trader') void queryClient.prefetchQuery(tradesHistoryQuery);
  return null;
}

/** A back-office page: staff holding the permission its path needs (dashboard/page-permissions.ts). */
const staffPage = ({ request }: LoaderFunctionArgs) => requirePermission(pagePermission(new URL(request.url).pathname))();

const dashboardRoutes: RouteObject[] = [
  { index: true, loader: () => redirect('/dashboard/home') },
  { path: 'home', loader: prefetchHome, ...page(async () => ({ Component: (await import('./dashboard/home-page')).HomePage })) },
  { path: 'profile', ...page(async () => ({ Component: (await import('./dashboard/profile-page')).ProfilePage })) },
  { path: 'activity_account', ...page(async () => ({ Component: (await import('./dashboard/activity-page')).ActivityPage })) },
  { path: 'change-password', ...page(async () => ({ Component: (await import('./dashboard/settings-page')).SettingsPage })) },
  { path: 'accounts', loader: requireTrader, ...page(async () => ({ Component: (await import('./dashboard/accounts-page')).AccountsPage })) },
  { path: 'menu', ...page(async () => ({ Component: (await import('./dashboard/menu-page')).MenuPage })) },
  { path: 'statements', loader: requireTrader, ...page(async () => ({ Component: (await import('./dashboard/statements-page')).StatementsPage })) },
  { path: 'transfers', loader: requireTrader, ...page(async () => ({ Component: (await import('./money/transfers-page')).TransfersPage })) },
  { path: 'funds', loader: requireTrader, ...page(async () => ({ Component: (await import('./money/funds-page')).FundsPage })) },
  { path: 'deposit_options', loader: requireTrader, ...page(async () => ({ Component: (await import('./money/deposit-options-page')).DepositOptionsPage })) },
  { path: 'deposit', loader: requireTrader, ...page(async () => ({ Component: (await import('./money/deposit-page')).DepositPage })) },
  { path: 'deposit_requests', loader: requireTrader, ...page(async () => ({ Component: (await import('./money/request-lists')).DepositRequestsPage })) },
  { path: 'withdraw_options', loader: requireTrader, ...page(async () => ({ Component: (await import('./money/withdraw-options-page')).WithdrawOptionsPage })) },
  { path: 'withdraw', loader: requireTrader, ...page(async () => ({ Component: (await import('./money/withdraw-page')).WithdrawPage })) },
  { path: 'withdraw_requests', loader: requireTrader, ...page(async () => ({ Component: (await import('./money/request-lists')).WithdrawRequestsPage })) },
  { path: 'tools', ...page(async () => ({ Component: (await import('./tools/market-summary-page')).MarketSummaryPage })) },
  { path: 'tools_options', ...page(async () => ({ Component: (await import('./tools/technical-summary-page')).TechnicalSummaryPage })) },
  { path: 'tools_requests', loader: requireTrader, ...page(async () => ({ Component: (await import('./money/request-lists')).AllRequestsPage })) },
  { path: 'Policies', ...page(async () => ({ Component: (await import('./dashboard/policies-page')).PoliciesPage })) },
  { path: 'Policies/:documentId', ...page(async () => ({ Component: (await import('./dashboard/policies-page')).PoliciesPage })) },
  { path: 'users', loader: staffPage, ...page(async () => ({ Component: (await import('./admin/users-page')).UsersPage })) },
  { path: 'account_types', loader: staffPage, ...page(async () => ({ Component: (await import('./admin/account-types-page')).AccountTypesPage })) },
  { path: 'symbols', loader: staffPage, ...page(async () => ({ Component: (await import('./admin/symbols-page')).SymbolsPage })) },
  { path: 'admin_accounts', loader: staffPage, ...page(async () => ({ Component: (await import('./admin/payment-accounts-page')).PaymentAccountsPage })) },
  { path: 'requests/user_deposit_requests', loader: staffPage, ...page(async () => ({ Component: (await import('./admin/money-requests-page')).DepositRequestsAdminPage })) },
  { path: 'requests/user_withdraw_requests', loader: staffPage, ...page(async () => ({ Component: (await import('./admin/money-requests-page')).WithdrawRequestsAdminPage })) },
  { path: 'requests/user_closs_records', loader: staffPage, ...page(async () => ({ Component: (await import('./admin/closed-records-page')).ClosedRecordsPage })) },
  { path: 'users/:traderId', loader: staffPage, ...page(async () => ({ Component: (await import('./admin/trader-page')).TraderPage })) },
  { path: 'reports', loader: staffPage, ...page(async () => ({ Component: (await import('./admin/reports-page')).ReportsPage })) },
  { path: 'exposure', loader: staffPage, ...page(async () => ({ Component: (await import('./admin/exposure-page')).ExposurePage })) },
  { path: 'open_trades', loader: staffPage, ...page(async () => ({ Component: (await import('./admin/open-trades-page')).OpenTradesPage })) },
  { path: 'audit_log', loader: staffPage, ...page(async () => ({ Component: (await import('./admin/audit-log-page')).AuditLogPage })) },
  { path: 'staff', loader: staffPage, ...page(async () => ({ Component: (await import('./admin/staff-page')).StaffPage })) },
];

const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: LoadingScreen,
    children: [
      { index: true, loader: signedOutOnly, Component: SignInPage },
      { path: 'signup', loader: signedOutOnly, ...page(async () => ({ Component: (await import('./auth/sign-up-page')).SignUpPage })) },
      { path: 'forgot-password', ...page(async () => ({ Component: (await import('./auth/forgot-password-page')).ForgotPasswordPage })) },
      { path: 'reset-password', ...page(async () => ({ Component: (await import('./auth/reset-password-page')).ResetPasswordPage })) },
      { path: 'legal', ...page(async () => ({ Component: (await import('./dashboard/policies-page')).PublicPoliciesPage })) },
      { path: 'legal/:documentId', ...page(async () => ({ Component: (await import('./dashboard/policies-page')).PublicPoliciesPage })) },
      {
        loader: requireSession,
        // The stream connects as soon as this module and the session are both in, not when the page renders.
        ...page(async () => {
          const layout = await import('./ui/signed-in-layout');
          void layout.connectEarly();
          return { Component: layout.SignedInLayout };
        }),
        children: [
          {
            path: 'trading',
            loader: requireTrader,
            // The phone's or the desktop's terminal, whichever this window shows, is fetched before the route renders.
            ...page(async () => {
              const route = await import('./terminal/trading-route');
              await route.preloadTradingLayout();
              return { Component: route.TradingRoute };
            }),
          },
          { path: 'dashboard', ...page(async () => ({ Component: (await import('./dashboard/dashboard-shell')).DashboardShell })), children: dashboardRoutes },
        ],
      },
      { path: '*', ...page(async () => ({ Component: (await import('./ui/not-found-page')).NotFoundPage })) },
    ],
  },
];

let router: ReturnType<typeof createBrowserRouter> | null = null;

/**
 * Creates the app's router, which at once matches the address, asks for the session and starts
 * loading the page's modules. Called by main.tsx in a task of its own, after the first script has
 * run (together they were one long task on a slow phone).
 */
export function createAppRouter(): ReturnType<typeof createBrowserRouter> {
  router ??= createBrowserRouter(routes);
  return router;
}

/** A call refused with 401 means the session ended elsewhere: forget this user and go to sign-in. */
onUnauthorized(() => {
  // The stream module is loaded with the signed-in pages; it is not part of the first script.
  void import('./stream/stream').then(({ stream }) => stream.stop());
  queryClient.clear();
  if (window.location.pathname !== '/') void router?.navigate('/', { replace: true });
});
