import { describe, expect, it } from 'vitest';
import { noteMarks, sameBox, tipPlacement } from '../src/domain/chart-notes';

const note = (id: number, sec: number) => ({
  note_id: id,
  prototype_id: 0,
  at: new Date(sec * 1000).toISOString(),
  text: `note ${id}`,
  tags: [],
  author: null,
});
const box = { left: 50, top: 10, width: 1000, height: 300, minSec: 0, maxSec: 1000 };

describe('noteMarks', () => {
  it('places each note along the plot by its time', () => {
    const marks = noteMarks([note(2, 500), note(1, 0), note(3, 1000)], box);
    expect(marks.map((m) => [m.x, m.notes.map((n) => n.note_id)])).toEqual([
      [50, [1]],
      [550, [2]],
      [1050, [3]],
    ]);
  });

  it('leaves out notes outside the span', () => {
    expect(noteMarks([note(1, -1), note(2, 1001)], box)).toEqual([]);
  });

  it('puts notes closer than the merge distance under one mark, measured from its first', () => {
    const marks = noteMarks([note(1, 100), note(2, 110), note(3, 143), note(4, 144)], box);
    expect(marks.map((m) => m.notes.map((n) => n.note_id))).toEqual([[1, 2, 3], [4]]);
  });

  it('hangs a flag left of its line where it would pass the right edge', () => {
    const marks = noteMarks([note(1, 950), note(2, 959), note(3, 1000)], box);
    expect(marks.map((m) => m.flagLeft)).toEqual([false, true]);
  });

  it('gives each mark the place of its text box', () => {
    const [mark] = noteMarks([note(1, 900)], box);
    expect({ tipLeft: mark.tipLeft, tipWidth: mark.tipWidth }).toEqual(tipPlacement(950, box));
  });

  it('draws nothing without a box or span', () => {
    expect(noteMarks([note(1, 1)], null)).toEqual([]);
    expect(noteMarks([note(1, 1)], { ...box, maxSec: 0 })).toEqual([]);
    expect(noteMarks([note(1, 1)], { ...box, width: 0 })).toEqual([]);
  });
});

describe('sameBox', () => {
  it('compares every field', () => {
    expect(sameBox(box, { ...box })).toBe(true);
    expect(sameBox(box, { ...box, maxSec: 1001 })).toBe(false);
    expect(sameBox(null, null)).toBe(true);
    expect(sameBox(box, null)).toBe(false);
  });
});

describe('tipPlacement', () => {
  const plot = { left: 50, width: 1000 };
  it('starts the box at the mark when it fits', () => {
    expect(tipPlacement(100, plot)).toEqual({ tipLeft: 0, tipWidth: 280 });
    expect(tipPlacement(770, plot)).toEqual({ tipLeft: 0, tipWidth: 280 });
  });

  it("moves it left so that it ends at the plot's right edge", () => {
    expect(tipPlacement(1000, plot)).toEqual({ tipLeft: -230, tipWidth: 280 });
  });

  it('spans a plot narrower than the box, from its left edge', () => {
    expect(tipPlacement(250, { left: 40, width: 200 })).toEqual({ tipLeft: -210, tipWidth: 200 });
  });
});
