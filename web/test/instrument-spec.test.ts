import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { instrumentSpec, pointText, sessionText, swapText, zoneName } from '../src/terminal/instrument-spec';
import { symbolRecord } from './helpers/symbols';

describe('an instrument’s specification in words', () => {
  test('trading sessions as the catalogue writes them read as days, times and the exchange’s zone', () => {
    assert.equal(sessionText('America/New_York Sun 17:00-Fri 17:00'), 'Sunday 17:00 to Friday 17:00, New York time');
    assert.equal(sessionText('America/New_York Mon-Fri 09:30-16:00'), 'Monday to Friday, 09:30 to 16:00, New York time');
    assert.equal(sessionText('Mon-Fri 13:30-20:00'), 'Monday to Friday, 13:30 to 20:00, UTC time');
    assert.equal(sessionText('Europe/London Mon 08:00 - Fri 16:30'), 'Monday 08:00 to Friday 16:30, London time');
    assert.equal(sessionText('always'), 'Around the clock, every day');
    assert.equal(sessionText('ALWAYS'), 'Around the clock, every day');
    assert.equal(sessionText('whenever the desk is staffed'), 'whenever the desk is staffed', 'anything else as written');
    assert.equal(zoneName('America/Argentina/Buenos_Aires'), 'Buenos Aires');
  });

  test('a point is written with the instrument’s digits', () => {
    assert.equal(pointText(5), '0.00001');
    assert.equal(pointText(3), '0.001');
    assert.equal(pointText(1), '0.1');
    assert.equal(pointText(0), '1');
  });

  test('swaps carry their sign and unit', () => {
    assert.equal(swapText(-7.2), '-7.2 points');
    assert.equal(swapText(2.1), '+2.1 points');
    assert.equal(swapText(-3), '-3 points');
    assert.equal(swapText(0.25), '+0.25 points');
    assert.equal(swapText(0), '0 points');
  });

  test('the specification lists what a trader needs before an order, in the catalogue’s figures', () => {
    const eurusd = instrumentSpec(symbolRecord('EURUSD', 'Forex', { swapLong: -7.2, swapShort: 2.1 }));
    const line = (label: string) => eurusd.find((l) => l.label === label)?.value;
    assert.equal(line('Digits'), '5 (one point is 0.00001)');
    assert.equal(line('Contract size'), '100,000 EUR per lot');
    assert.equal(line('Volume'), '0.01 to 100 lots, in steps of 0.01');
    assert.equal(line('Swap, Buy'), '-7.2 points per lot a day');
    assert.equal(line('Swap, Sell'), '+2.1 points per lot a day');
    assert.match(line('Margin') ?? '', /^Forex/);
    // An account type with swaps of its own on the instrument: those, and said to be the type's.
    const typed = instrumentSpec(symbolRecord('EURUSD', 'Forex', { swapLong: -7.2, swapShort: 2.1 }), { swapLong: 0, swapShort: -1.5 });
    assert.deepEqual(typed.filter((l) => l.label.startsWith('Swap, ')).map((l) => l.value), ['0 points per lot a day (your account type’s)', '-1.5 points per lot a day (your account type’s)']);
    const gold = instrumentSpec(symbolRecord('XAUUSD', 'Metals', { digits: 2, contractSize: 100, calcMode: 'cfd', volumeMax: 50 }));
    assert.equal(gold.find((l) => l.label === 'Contract size')?.value, '100 units per lot');
    assert.match(gold.find((l) => l.label === 'Margin')?.value ?? '', /^CFD/);
  });
});
