/** Whether an Origin/Referer value names this site (its Host) or one of the configured public origins. */
export function isSameSite(source: string | undefined, host: string | undefined, publicOrigins: string[]): boolean {
  if (!source || !host) return false;
  try {
    const url = new URL(source);
    return url.host === host || publicOrigins.includes(url.origin);
  } catch {
    return false;
  }
}
