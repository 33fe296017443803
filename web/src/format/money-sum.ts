/** Sums of the money strings the server sends ("1250.50"), exact in cents: totals of lists the back office shows. */

/** Sums money strings exactly, in cents, and answers a money string. */
export function sumMoney(amounts: readonly string[]): string {
  let cents = 0n;
  for (const amount of amounts) {
    const match = /^(-?)(\d+)\.(\d{2})$/.exec(amount);
    if (!match) continue;
    const [, sign, whole = '0', fraction = '00'] = match;
    const value = BigInt(whole + fraction);
    cents += sign ? -value : value;
  }
  const negative = cents < 0n;
  const digits = (negative ? -cents : cents).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** A money amount with its sign turned ('0.00' stays as it is). */
export const negatedMoney = (amount: string) => (amount.startsWith('-') ? amount.slice(1) : /^0\.00$/.test(amount) ? amount : `-${amount}`);
