import { z } from 'zod';
import { timestamp } from './common';

/**
 * What the web app needs to know about this installation before anyone signs in. `supportChatPhone`
 * is the broker's chat number in digits (no '+'), from `SUPPORT_CHAT_PHONE`; the app links to
 * `https://wa.me/<number>` and hides the chat button when it is null. `marginCallLevel` and
 * `stopOutLevel` are the broker's margin levels in percent (`MARGIN_CALL_LEVEL`, `STOP_OUT_LEVEL`):
 * the terminal shows its margin-call banner while the account's level is at or below the first.
 */
export const appConfigResponse = z.object({
  status: z.literal('success'),
  supportChatPhone: z.string().nullable(),
  marginCallLevel: z.number(),
  stopOutLevel: z.number(),
});
export type AppConfigResponse = z.infer<typeof appConfigResponse>;

/** A legal document's id is its file name without `.md`: lowercase letters, digits and dashes. */
export const LEGAL_DOCUMENT_ID_PATTERN = /^[a-z0-9-]{1,64}$/;

/**
 * `version` names the document's current text (a digest of the file): sign-up records the versions
 * the new trader accepted, and refuses an acceptance of a text that has since changed.
 */
export const legalDocumentSummary = z.object({ id: z.string(), title: z.string(), version: z.string() });
export type LegalDocumentSummary = z.infer<typeof legalDocumentSummary>;
export const legalDocumentsResponse = z.object({ status: z.literal('success'), data: z.array(legalDocumentSummary) });

/** Any id that is not a document's, malformed ones included, is answered 404 'No such document.'. */
export const legalDocumentQuery = z.object({
  id: z.preprocess((v) => (typeof v === 'string' ? v : ''), z.string()),
});

/**
 * One document. `html` is the body rendered from the operator's markdown without its first
 * `# ` heading (that is `title`); raw HTML in the markdown arrives escaped, as text.
 * `updatedAt` is when the file last changed; `version` as in the list.
 */
export const legalDocument = z.object({ id: z.string(), title: z.string(), version: z.string(), html: z.string(), updatedAt: timestamp });
export type LegalDocument = z.infer<typeof legalDocument>;
export const legalDocumentResponse = z.object({ status: z.literal('success'), data: legalDocument });
