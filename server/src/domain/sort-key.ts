/**
 * The order in which the back office lists people by name, as a key the database can index: the
 * full name with accents and case taken off (`Åsa` and `asa` sort alike, as `Intl.Collator` with
 * base sensitivity has them), letters that do not decompose written out (`ß` → `ss`, `ø` → `o`),
 * runs of white space as one space. Keys compare code point by code point (SQLite's default,
 * `collate "C"` on PostgreSQL), the same on both engines; ties are broken by id.
 */
export function nameSortKey(firstName: string, lastName: string): string {
  return sortKey(`${firstName} ${lastName}`);
}

const WRITTEN_OUT: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't' };

export function sortKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđðłþıħŧ]/g, (ch) => WRITTEN_OUT[ch] ?? ch)
    .replace(/\s+/g, ' ')
    .trim();
}
