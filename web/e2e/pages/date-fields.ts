import type { Locator, Page } from 'playwright-core';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The open calendar of a date field: a dropdown, or a dialog on a phone. */
export function calendar(page: Page): Locator {
  return page.locator('[data-dates-dropdown]:visible, [data-dates-modal] .mantine-Modal-content:visible').first();
}

/**
 * Picks a day ('YYYY-MM-DD') and a time ('HH:mm') in a date-and-time field, as a person does with
 * a pointer: opens it, climbs to the decade, picks the year, the month and the day, types the
 * hours and minutes and sets them.
 */
export async function pickDateTime(page: Page, field: Locator, day: string, time: string): Promise<void> {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const [hours, minutes] = time.split(':');
  await field.click();
  const open = calendar(page);
  await open.waitFor();
  // The header's level button, named by its text: 'November 2030' (to the year), then '2030' (to the decade).
  const level = open.locator('[class*="-calendarHeaderLevel"]');
  await level.click();
  await open.getByRole('button', { name: /^\d{4}$/ }).and(level).click();
  // The decade shown, then the one before or after it until the year is in it.
  for (let i = 0; i < 20; i++) {
    const years = (await open.locator('button').allTextContents()).filter((t) => /^\d{4}$/.test(t.trim())).map(Number);
    if (years.includes(year)) break;
    await open.getByRole('button', { name: year < Math.min(...years) ? 'Previous decade' : 'Next decade' }).click();
  }
  await open.getByRole('button', { name: String(year), exact: true }).click();
  await open.getByRole('button', { name: MONTHS[month - 1]!, exact: true }).click();
  await open.getByRole('button', { name: `${date} ${LONG_MONTHS[month - 1]} ${year}`, exact: true }).click();
  await open.getByRole('spinbutton', { name: 'Hours' }).fill(hours!);
  await open.getByRole('spinbutton', { name: 'Minutes' }).fill(minutes!);
  await open.getByRole('button', { name: 'Set the date and time' }).click();
  await open.waitFor({ state: 'hidden' });
}
