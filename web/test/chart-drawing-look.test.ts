import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_NOTE_LENGTH } from '@tradeport/contracts';
import { lineDash, noteFontPx, noteLayout } from '../src/chart/drawing-look';
import { noteProblem } from '../src/chart/note-dialog';
import { CAPTION_HEIGHT, CAPTION_HEIGHT_TWO_LINES, captionLayout, pictureCaption } from '../src/chart/picture-caption';

describe('a drawing’s line style', () => {
  it('is solid without a pattern, dashed in dashes longer than the tools’ own helper dashes, dotted in dots of its width', () => {
    assert.equal(lineDash(undefined, 2), undefined);
    assert.equal(lineDash('solid', 2), undefined);
    assert.deepEqual(lineDash('dashed', 1), [8, 5]);
    assert.deepEqual(lineDash('dashed', 3), [12, 7]);
    assert.ok(lineDash('dashed', 1)![0]! > 4, 'longer than the 4 px helper dashes');
    assert.deepEqual(lineDash('dotted', 1), [1, 3]);
    assert.deepEqual(lineDash('dotted', 4), [4, 6]);
  });
});

describe('a text note', () => {
  it('sizes its text by the drawing’s width, 12 to 20 px', () => {
    assert.deepEqual([1, 2, 3, 4].map(noteFontPx), [12, 14, 16, 20]);
    assert.equal(noteFontPx(0), 12);
    assert.equal(noteFontPx(9), 20);
  });

  it('puts its lines in a padded box whose top-left corner is its point, as wide as its longest line', () => {
    const { box, texts } = noteLayout({ x: 100, y: 50 }, ['Support', 'held twice'], [50, 70], 14, 'f');
    assert.deepEqual(box, [{ x: 100, y: 50 }, { x: 182, y: 50 }, { x: 182, y: 94 }, { x: 100, y: 94 }]);
    assert.deepEqual(texts.map((t) => [t.text, t.x, t.y, t.width, t.font]), [['Support', 106, 56, 50, 'f'], ['held twice', 106, 74, 70, 'f']]);
  });

  it('asks for some text, within the server’s length and line limits, before it is sent', () => {
    assert.equal(noteProblem('  \n '), 'Write the note’s text.');
    assert.equal(noteProblem('Buy the dip'), null);
    assert.equal(noteProblem(` ${'x'.repeat(MAX_NOTE_LENGTH)} `), null, 'spaces around are not counted');
    assert.equal(noteProblem('x'.repeat(MAX_NOTE_LENGTH + 1)), `At most ${MAX_NOTE_LENGTH} characters.`);
    assert.equal(noteProblem('1\n2\n3\n4\n5\n6'), 'At most 5 lines.');
  });
});

describe('a saved chart picture’s caption', () => {
  it('names the instrument and period, and the time in the trader’s own zone with its name', () => {
    const at = Date.UTC(2026, 10, 24, 9, 15, 2);
    const caption = pictureCaption('EURUSD', 'H1', at);
    assert.equal(caption.title, 'EURUSD · H1');
    // The test runs in the machine's zone: the same text as every other time the app shows.
    const zone = new Intl.DateTimeFormat('en-GB', { timeZoneName: 'short' }).formatToParts(at).find((p) => p.type === 'timeZoneName')!.value;
    assert.ok(caption.time.endsWith(zone), caption.time);
    assert.match(caption.time, /^\d{2} Nov 2026, \d{2}:\d{2}:02 /);
  });

  it('puts the title left and the time right on one line, or the time under the title when they would meet', () => {
    assert.deepEqual(captionLayout(1000, 90, 160), { height: CAPTION_HEIGHT, title: { x: 12, y: 18 }, time: { x: 828, y: 18 } });
    const narrow = captionLayout(250, 90, 160);
    assert.equal(narrow.height, CAPTION_HEIGHT_TWO_LINES);
    assert.equal(narrow.time.x, narrow.title.x);
    assert.ok(narrow.time.y > narrow.title.y + 14);
  });
});
