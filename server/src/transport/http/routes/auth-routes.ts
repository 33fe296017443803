import { calls, PASSWORD_RESET_DONE_MESSAGE, PASSWORD_RESET_REQUESTED_MESSAGE, permissionsOf, TWO_FACTOR_MESSAGES } from '@tradeport/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { changeOwnPassword, login, logout, register, sessionUserDetails } from '../../../services/auth-service';
import { requestPasswordReset, resetPassword } from '../../../services/password-reset';
import { listCountries } from '../../../services/countries';
import { assessPassword } from '../../../services/password-strength';
import { registerCall } from '../call-route';
import { successData, successMessage } from '../responses';
import { clearChallengeCookie, clearSessionCookie, currentSession, deviceHashOf, SESSION_COOKIE, setChallengeCookie, setSessionCookie } from '../session-cookie';
import type { SessionUser } from '../../../services/sessions';
import { challengeOf, CHALLENGE_COOKIE } from '../../../services/two-factor';
import { endOtherSessions, endSession, listSessions, listSignIns } from '../../../services/sign-ins';
import { confirmSetup, disableOwnTwoFactor, renewBackupCodes, startSetup, twoFactorStatus, verifySignIn, type Enrolling } from '../../../services/two-factor-flows';

const rateLimited = (max: number) => ({
  config: { rateLimit: { max, timeWindow: '1 minute' } },
});

/**
 * A limit counted per signed-in user rather than per address: a password change needs a session,
 * and one account should not be able to score and hash passwords without end from many addresses.
 * A request without a session is counted by its address (it is refused as signed out anyway).
 */
const perUser = (max: number, timeWindow: string, what: string) => ({
  config: {
    rateLimit: {
      max,
      timeWindow,
      keyGenerator: async (request: FastifyRequest) => {
        const session = await currentSession(request);
        return session ? `user:${session.userId}` : `ip:${request.ip}`;
      },
      errorResponseBuilder: (_request: FastifyRequest, context: { ttl: number }) => {
        const minutes = Math.max(1, Math.ceil(context.ttl / 60_000));
        return { statusCode: 429, code: 'RATE_LIMITED', message: `Too many ${what}. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.` };
      },
    },
  },
});

export function authRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  registerCall(app, calls.testSession, async ({ session }) => {
    const user = session ? await sessionUserDetails(ctx, session) : null;
    if (!session || !user) return { status: 'Failure' as const, message: 'Not signed in.' };
    if (session.role !== 'admin') return { status: 'success' as const, accountType: '0' as const, user };
    return { status: 'success' as const, accountType: '1' as const, user, staffRoles: [...session.staffRoles], permissions: permissionsOf(session.staffRoles) };
  });

  registerCall(
    app,
    calls.login,
    async ({ body, client, request, reply }) => {
      const result = await login(ctx, body, { ...client, deviceHash: deviceHashOf(request, reply) }, request.cookies[SESSION_COOKIE] ?? null);
      if (result.kind === 'second-step') {
        setChallengeCookie(request, reply, result.token);
        return { status: 'TwoFactor' as const, step: result.step, message: TWO_FACTOR_MESSAGES[result.step] };
      }
      setSessionCookie(request, reply, result.session);
      return { status: 'Success' as const, accountType: result.accountType, message: result.message };
    },
    rateLimited(ctx.config.signinRateLimitPerMinute),
  );

  // ---------------------------------------------------------------- two-factor sign-in

  registerCall(
    app,
    calls.verifySignIn,
    async ({ body, client, request, reply }) => {
      const result = await verifySignIn(ctx, request.cookies[CHALLENGE_COOKIE], body.code, { ...client, deviceHash: deviceHashOf(request, reply) }, request.cookies[SESSION_COOKIE] ?? null);
      clearChallengeCookie(request, reply);
      setSessionCookie(request, reply, result.session);
      return { status: 'Success' as const, accountType: result.accountType, message: result.message };
    },
    rateLimited(ctx.config.signinRateLimitPerMinute),
  );

  /**
   * A staff member's sign-in that stopped to set one up (its step cookie), else a signed-in person
   * from My Settings. The step comes first: the browser may still hold someone else's session,
   * which the finished sign-in replaces.
   */
  const enrolling = async (request: FastifyRequest, session: SessionUser | null): Promise<Enrolling> => {
    const step = request.cookies[CHALLENGE_COOKIE];
    if (step) {
      const challenge = await challengeOf(ctx, step, 'enrol').catch((err: unknown) => {
        if (session) return null;
        throw err;
      });
      if (challenge) return { challenge };
    }
    if (session) return { session };
    return { challenge: await challengeOf(ctx, undefined, 'enrol') };
  };

  registerCall(app, calls.startTwoFactorSetup, async ({ session, request }) => ({ status: 'success' as const, ...(await startSetup(ctx, await enrolling(request, session))) }), rateLimited(ctx.config.signinRateLimitPerMinute));

  registerCall(
    app,
    calls.confirmTwoFactorSetup,
    async ({ body, session, client, request, reply }) => {
      const { backupCodes, signedIn } = await confirmSetup(ctx, await enrolling(request, session), body.code, { ...client, deviceHash: deviceHashOf(request, reply) }, request.cookies[SESSION_COOKIE] ?? null);
      if (!signedIn) return { status: 'success' as const, message: 'Two-factor sign-in is on. Keep your backup codes somewhere safe.', backupCodes };
      clearChallengeCookie(request, reply);
      setSessionCookie(request, reply, signedIn.session);
      return { status: 'success' as const, message: 'Two-factor sign-in is on. Keep your backup codes somewhere safe.', backupCodes, accountType: signedIn.accountType };
    },
    rateLimited(ctx.config.signinRateLimitPerMinute),
  );

  registerCall(app, calls.getTwoFactor, async ({ session }) => twoFactorStatus(ctx, session));

  // ---------------------------------------------------------------- sign-in history and devices

  registerCall(app, calls.getSignIns, async ({ session }) => successData(await listSignIns(ctx, session.userId)));
  registerCall(app, calls.getSessions, async ({ session }) => successData(await listSessions(ctx, session)));
  registerCall(app, calls.endSession, async ({ body, session, client, request, reply }) => {
    const ended = await endSession(ctx, session, body.id, client.ip);
    // This device's own session: signed out here too.
    if (body.id === session.sessionHash) clearSessionCookie(request, reply);
    return { status: 'success' as const, message: body.id === session.sessionHash ? 'Signed out.' : 'That device is signed out.', ended };
  });
  registerCall(app, calls.endOtherSessions, async ({ session, client }) => {
    const ended = await endOtherSessions(ctx, session, client.ip);
    return { status: 'success' as const, message: ended === 0 ? 'No other device was signed in.' : `Signed out ${ended === 1 ? '1 other device' : `${ended} other devices`}.`, ended };
  });

  registerCall(
    app,
    calls.newBackupCodes,
    async ({ body, session, client }) => ({ status: 'success' as const, message: 'Your new backup codes: the old ones no longer work.', backupCodes: await renewBackupCodes(ctx, session, body.code, client) }),
    perUser(ctx.config.passwordChangeRateLimitPerHour, '1 hour', 'two-factor changes'),
  );

  registerCall(
    app,
    calls.disableTwoFactor,
    async ({ body, session, client }) => {
      await disableOwnTwoFactor(ctx, session, body.password, body.code, client);
      return successMessage('Two-factor sign-in is off.');
    },
    perUser(ctx.config.passwordChangeRateLimitPerHour, '1 hour', 'two-factor changes'),
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
    // The web app's meter asks 300 ms after typing pauses, and never twice for the same text, so a
    // person typing a password asks a few times a minute; the limit leaves room for that (and a
    // few people behind one address) while stopping a script from using the server as a free
    // password-scoring service. Scoring itself runs off the main thread (services/password-scoring.ts).
    rateLimited(ctx.config.passwordStrengthRateLimitPerMinute),
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

  registerCall(
    app,
    calls.changePassword,
    async ({ body, session, client, request, reply }) => {
      const issued = await changeOwnPassword(ctx, session, body, client);
      setSessionCookie(request, reply, issued);
      return successMessage('Your password has been changed. Other devices have been signed out.');
    },
    // Each change with the right current password scores and hashes the new one; a person needs
    // a few tries at most (the meter shows the verdict before they submit).
    perUser(ctx.config.passwordChangeRateLimitPerHour, '1 hour', 'password changes'),
  );
}
