/**
 * Texts the server answers and the web app shows, in a module without zod, so a browser page can
 * import them (`@tradeport/contracts/messages`) without carrying the schemas.
 */

/** Sign-up messages, in the order the spec checks the fields. */
export const registrationMessages = {
  firstName: 'Please enter your first name.',
  lastName: 'Please enter your last name.',
  phoneNo: 'Please enter your phone number.',
  email: 'Please enter your email address.',
  password: 'Please enter your password.',
  country_id: 'Please select your country.',
} as const;

/**
 * The `reason` of an `order.updated` event when the back office changed or cancelled the order, so
 * the owner's screens can say so (the trader's own change is 'Modified', their cancel 'Cancelled by
 * the trader'). A cancelled order keeps its reason in the trader's history.
 */
export const ORDER_REASONS = {
  modifiedByBackOffice: 'Modified by the back office',
  cancelledByBackOffice: 'Cancelled by the back office',
} as const;
