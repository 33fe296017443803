/** Rules for the contact details a trader gives at sign-up and in their profile. */

/** Email syntax check: one @, a dotted domain, no spaces. Deliberately not an RFC 5322 parser. */
export function isValidEmail(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email) && !email.includes('..');
}

/** Phone numbers are stored as digits only (spec: numeric input), 6 to 15 digits as in E.164. */
export function isValidPhone(phone: string): boolean {
  return /^\d{6,15}$/.test(phone);
}

/** People type spaces and dashes in phone numbers; they are dropped before the digits-only check. */
export const normalizePhone = (phone: string): string => phone.replace(/[\s-]/g, '');
