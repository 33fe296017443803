import { calls } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { addStaffMember, editStaffMember, listStaff } from '../../../services/staff';
import { registerCall } from '../call-route';
import { successData, successMessage } from '../responses';
import { resetTwoFactor } from '../../../services/two-factor-flows';

/** The back office's staff: administrators add staff members and set their roles (docs/api.md#staff). */
export function staffRoutes(app: FastifyInstance): void {
  const ctx = app.services;

  registerCall(app, calls.getStaff, async () => successData(await listStaff(ctx)));

  registerCall(app, calls.addStaffMember, async ({ body, actor }) => ({ status: 'success' as const, ...(await addStaffMember(ctx, actor, body)) }));

  registerCall(app, calls.editStaffMember, async ({ body, actor }) => ({ status: 'success' as const, ...(await editStaffMember(ctx, actor, body)) }));

  registerCall(app, calls.resetStaffTwoFactor, async ({ body, actor }) => successMessage(await resetTwoFactor(ctx, actor, body.userId, 'admin')));
}
