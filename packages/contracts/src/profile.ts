import { z } from 'zod';
import { accountType, money, oneLine, timestamp } from './common';

export const profileDetails = z.object({
  id: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phoneNo: z.string(),
  countryId: z.number().nullable(),
  countryName: z.string(),
  countryCode: z.string(),
  dateOfBirth: z.string(),
  nationality: z.string(),
  accountType,
  leverage: z.number(),
  createdAt: timestamp,
  totalBalance: money,
  totalCredit: money,
  totalDeposite: money,
  totalWithdrawals: money,
});
export type ProfileDetails = z.infer<typeof profileDetails>;
export const profileResponse = z.object({ status: z.literal('success'), data: z.array(profileDetails) });

const optionalText = (max: number, label: string) =>
  z.preprocess((v) => (v === undefined || v === null ? '' : v), oneLine(z.string().trim().max(max, `Must be at most ${max} characters.`), label));

export const editProfileRequest = z.object({
  firstName: oneLine(z.string({ error: 'Please enter your first name.' }).trim().min(1, 'Please enter your first name.').max(50, 'First name must be at most 50 characters.'), 'First name'),
  lastName: oneLine(z.string({ error: 'Please enter your last name.' }).trim().min(1, 'Please enter your last name.').max(50, 'Last name must be at most 50 characters.'), 'Last name'),
  phoneNo: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), oneLine(z.string({ error: 'Please enter your phone number.' }).trim().min(1, 'Please enter your phone number.').max(20), 'Phone number')),
  country_id: z.preprocess((v) => (typeof v === 'number' ? String(v) : v), oneLine(z.string({ error: 'Please select your country.' }).trim().min(1, 'Please select your country.').max(10), 'Country')),
  dateOfBirth: optionalText(10, 'Date of birth').refine((v) => v === '' || /^\d{4}-\d{2}-\d{2}$/.test(v), 'Date of birth must be a date (YYYY-MM-DD).'),
  nationality: optionalText(60, 'Nationality'),
});
export type EditProfileRequest = z.infer<typeof editProfileRequest>;
