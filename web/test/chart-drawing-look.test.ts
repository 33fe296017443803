import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_NOTE_LENGTH } from '@tradeport/contracts';
import { lineDash, noteFontPx, noteLayout } from '../src/chart/drawing-look';
import { noteProblem } from '../src/chart/note-dialog';

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
