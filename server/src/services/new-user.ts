import type { Insertable } from 'kysely';
import { nameSortKey } from '../domain/sort-key';
import type { UsersTable } from '../storage/schema';

/** The row of a new person: no profile extras, active, not yet seen (their money lives in their trading accounts). */
export function newUserRow(u: {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  phoneNo: string;
  countryId: number | null;
  role: 'trader' | 'admin';
  /** A back-office user's roles, as stored (formatStaffRoles); none for a trader. */
  staffRoles?: string;
  reserved: boolean;
  now: number;
}): Insertable<UsersTable> {
  return {
    email: u.email,
    password_hash: u.passwordHash,
    first_name: u.firstName,
    last_name: u.lastName,
    sort_name: nameSortKey(u.firstName, u.lastName),
    phone_no: u.phoneNo,
    country_id: u.countryId,
    date_of_birth: '',
    nationality: '',
    role: u.role,
    staff_roles: u.role === 'admin' ? (u.staffRoles ?? '') : '',
    is_active: 1,
    is_reserved: u.reserved ? 1 : 0,
    created_at: u.now,
    updated_at: u.now,
    last_seen_at: null,
  };
}
