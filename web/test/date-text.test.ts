import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import dayjs from 'dayjs';
import fc from 'fast-check';
import { formatDate, fromLocalInput } from '../src/format/format';
import { formDateTime, parseDayText, pickerDateTime } from '../src/ui/date-text';

const pad = (n: number) => String(n).padStart(2, '0');
/** Any day of the calendar from 1900 to 2200, as 'YYYY-MM-DD' and as a local Date at noon. */
const anyDay = fc.date({ min: new Date(1900, 0, 1), max: new Date(2200, 11, 31), noInvalidDate: true }).map((d) => {
  const local = new Date(d.getFullYear(), d.getMonth(), d.getDate(), 12);
  return { iso: `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}`, local };
});

describe('a day typed into a date field', () => {
  it('reads the app’s format and ISO, in any case, with or without a comma', () => {
    assert.equal(parseDayText('05 Jan 2026'), '2026-01-05');
    assert.equal(parseDayText('5 jan 2026'), '2026-01-05');
    assert.equal(parseDayText(' 5 January, 2026 '), '2026-01-05');
    assert.equal(parseDayText('30 Sept 2030'), '2030-09-30');
    assert.equal(parseDayText('2026-01-05'), '2026-01-05');
    assert.equal(parseDayText('29 Feb 2024'), '2024-02-29');
  });

  it('is no day when the calendar has no such day or the text is not a day', () => {
    for (const text of ['', '31 Apr 2026', '29 Feb 2026', '2026-02-30', '2026-13-01', '0 Jan 2026', '5 Ja 2026', '5 Jam 2026', '5 Mayo 2026', '05/01/2026', 'tomorrow', '2026-1-5', '5 Jan 26']) {
      assert.equal(parseDayText(text), null, text);
    }
  });

  it('reads back every day as the app writes it (its format and the picker’s), and as ISO', () => {
    fc.assert(
      fc.property(anyDay, ({ iso, local }) => {
        assert.equal(parseDayText(formatDate(local.getTime())), iso);
        assert.equal(parseDayText(dayjs(local).format('DD MMM YYYY')), iso);
        assert.equal(parseDayText(iso), iso);
      }),
    );
  });

  it('changes nothing while a day is half typed: no shorter start of a day’s text is a day', () => {
    fc.assert(
      fc.property(anyDay, ({ iso, local }) => {
        for (const text of [iso, formatDate(local.getTime())]) {
          for (let n = 0; n < text.length; n++) assert.equal(parseDayText(text.slice(0, n)), null, text.slice(0, n));
        }
      }),
    );
  });
});

describe('a date and time between the form and the picker', () => {
  it('goes to the picker and back unchanged, read as the same local instant', () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), ({ iso }, h, m) => {
        const form = `${iso}T${pad(h)}:${pad(m)}`;
        const picker = pickerDateTime(form);
        assert.equal(picker, `${iso} ${pad(h)}:${pad(m)}:00`);
        assert.equal(formDateTime(picker), form);
        assert.equal(fromLocalInput(formDateTime(picker)), fromLocalInput(form));
      }),
    );
  });

  it('is empty for none, and the picker’s seconds are dropped', () => {
    assert.equal(pickerDateTime(''), null);
    assert.equal(pickerDateTime('2030-11-30'), null);
    assert.equal(formDateTime(null), '');
    assert.equal(formDateTime('2030-11-30 12:00:59'), '2030-11-30T12:00');
  });
});
