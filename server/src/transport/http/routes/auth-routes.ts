import { calls, PASSWORD_RESET_DONE_MESSAGE, PASSWORD_RESET_REQUESTED_MESSAGE } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { changeOwnPassword, login, logout, register, sessionUserDetails } from '../../../services/auth-service';
import { requestPasswordReset, resetPassword } from '../../../services/password-reset';
import { listCountries } from '../../../services/countries';
import { assessPassword } from '../../../services/password-strength';
import { registerCall } from '../call-route';
import { successData, successMessage } from '../responses';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from '../session-cookie';

const PASSWORD_STRENGTH_RATE_LIMIT_PER_MINUTE = 120;

const rateLimited = (max: number) => ({
  config: { rateLimit: { max, timeWindow: '1 minute' } },
});

export function authRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  registerCall(app, calls.testSession, async ({ session }) => {
    const user = session ? await sessionUserDetails(ctx, session) : null;
    return session && user ? { status: 'success' as const, accountType: session.role === 'admin' ? ('1' as const) : ('0' as const), user } : { status: 'Failure' as const, message: 'Not signed in.' };
  });

  registerCall(
    app,
    calls.login,
    async ({ body, client, request, reply }) => {
      const result = await login(ctx, body, client, request.cookies[SESSION_COOKIE] ?? null);
      setSessionCookie(request, reply, result.session);
      return { status: 'Success' as const, accountType: result.accountType, message: result.message };
    },
    rateLimited(ctx.config.signinRateLimitPerMinute),
  );

  registerCall(app, calls.logout, async ({ session, client, request, reply }) => {
    await logout(ctx, session, client);
    clearSessionCookie(request, reply);
    return successMessage('Signed out.');
  });

  registerCall(app, calls.getCountries, async () => successData(await listCountries(ctx.db)));

  registerCall(
    app,
    calls.passwordStrength,
    async ({ body, session }) => {
      const { score, problem, warning, suggestions } = await assessPassword(ctx, body, session);
      return { status: 'success' as const, score, acceptable: problem === null, message: problem, warning, suggestions };
    },
    // A meter asks as the person types (debounced): a generous limit that still stops a script
    // from using the server as a free password-scoring service.
    rateLimited(PASSWORD_STRENGTH_RATE_LIMIT_PER_MINUTE),
  );

  registerCall(
    app,
    calls.registration,
    async ({ body, client }) => {
      const { message } = await register(ctx, body, client);
      return { status: 'Success' as const, message };
    },
    rateLimited(ctx.config.signupRateLimitPerMinute),
  );

  registerCall(
    app,
    calls.requestPasswordReset,
    async ({ body, client }) => {
      await requestPasswordReset(ctx, body.email, client);
      return successMessage(PASSWORD_RESET_REQUESTED_MESSAGE);
    },
    rateLimited(ctx.config.passwordResetRateLimitPerMinute),
  );

  registerCall(
    app,
    calls.resetPassword,
    async ({ body, client }) => {
      await resetPassword(ctx, body, client);
      return successMessage(PASSWORD_RESET_DONE_MESSAGE);
    },
    rateLimited(ctx.config.passwordResetRateLimitPerMinute),
  );

  registerCall(app, calls.changePassword, async ({ body, session, client, request, reply }) => {
    const issued = await changeOwnPassword(ctx, session, body, client);
    setSessionCookie(request, reply, issued);
    return successMessage('Your password has been changed. Other devices have been signed out.');
  });
}
