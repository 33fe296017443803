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
