import { calls } from '@tradeport/contracts';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../call-route';
import { successData } from '../responses';

/** What every visitor may read: the installation's settings for the web app, and the legal documents. */
export function siteRoutes(app: FastifyInstance): void {
  const { legal } = app.services;

  const { supportChatPhone, trading } = app.services.config;
  registerCall(app, calls.getAppConfig, async () => ({ status: 'success' as const, supportChatPhone, marginCallLevel: trading.marginCallLevel, stopOutLevel: trading.stopOutLevel }));

  registerCall(app, calls.getLegalDocuments, async () => successData(await legal.list()));

  registerCall(app, calls.getLegalDocument, async ({ query }) => successData(await legal.get(query.id)));
}
