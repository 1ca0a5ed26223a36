import { describe, it, expect } from 'vitest';
import { linesFromWords, pageFromText } from '../src/document/layout.js';
import { buildDocument } from '../src/document/geometry.js';
import type { Word } from '../src/document/types.js';
import type { TextPage } from '../src/input/types.js';

/** A word at x0..x1 on a text line with top y and height h. */
const w = (text: string, x0: number, x1: number, y: number, h = 20, confidence = 1): Word => ({ text, confidence, box: { x0, y0: y, x1, y1: y + h } });

describe('linesFromWords', () => {
  it('groups shuffled words into lines, top to bottom, left to right, joined by single spaces', () => {
    const words = [w('12.34', 300, 360, 100), w('CASH', 10, 60, 130), w('TOTAL', 10, 70, 101), w('20.00', 300, 360, 131), w('SHOP', 10, 60, 40)];
    const lines = linesFromWords(words);
    expect(lines.map((l) => l.text)).toEqual(['SHOP', 'TOTAL 12.34', 'CASH 20.00']);
    expect(lines[1]!.words.map((x) => x.text)).toEqual(['TOTAL', '12.34']);
    expect(lines[1]!.box).toEqual({ x0: 10, y0: 100, x1: 360, y1: 121 });
  });

  it('keeps far-apart columns on one baseline as one line', () => {
    const lines = linesFromWords([w('Description', 20, 140, 500), w('Qty', 800, 840, 500), w('Amount', 1500, 1580, 500)]);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text).toBe('Description Qty Amount');
  });

  it('tolerates mixed font sizes and small baseline drift on one line', () => {
    const lines = linesFromWords([w('TOTAL', 10, 90, 200, 30), w('RM', 120, 150, 208, 20), w('33.90', 160, 230, 206, 22)]);
    expect(lines.map((l) => l.text)).toEqual(['TOTAL RM 33.90']);
  });

  it('separates tightly stacked lines that overlap by less than half a line', () => {
    const lines = linesFromWords([w('first', 10, 80, 100), w('second', 10, 90, 112), w('line', 90, 140, 101)]);
    expect(lines.map((l) => l.text)).toEqual(['first line', 'second']);
  });

  it('does not stack a word onto another one at the same x (different lines)', () => {
    // 60 % vertical overlap but both words occupy the same columns: two lines
    const lines = linesFromWords([w('upper', 10, 80, 100), w('lower', 12, 82, 108)]);
    expect(lines).toHaveLength(2);
  });

  it('drops overprinted duplicates (fake bold) and joins touching fragments of a word', () => {
    const lines = linesFromWords([
      w('Tot', 10, 40, 50), w('al', 40.5, 60, 50), w('Total', 10.4, 60.4, 50.2), w('9.99', 100, 140, 50),
      w('INVOICE', 10, 100, 10), w('INVOICE', 10.5, 100.5, 10),
    ]);
    expect(lines.map((l) => l.text)).toEqual(['INVOICE', 'Total 9.99']);
  });

  it('keeps words that are separated by a normal space apart', () => {
    const lines = linesFromWords([w('No.', 10, 40, 50), w('123', 46, 76, 50)]);
    expect(lines[0]!.words.map((x) => x.text)).toEqual(['No.', '123']);
  });

  it('averages confidences and ignores blank words', () => {
    const lines = linesFromWords([w('A', 0, 10, 0, 20, 0.5), w('B', 20, 30, 0, 20, 1), w('  ', 40, 50, 0)]);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.confidence).toBeCloseTo(0.75);
    expect(linesFromWords([])).toEqual([]);
  });
});

describe('pageFromText', () => {
  it('makes an upright pdf-text page whose lines buildDocument accepts', () => {
    const tp: TextPage = { kind: 'text', index: 1, width: 1240, height: 1754, scale: 2, words: [w('Invoice', 100, 220, 80, 28), w('#42', 240, 290, 82, 26), w('Total', 100, 180, 900), w('€', 900, 915, 900), w('56.02', 920, 990, 900)] };
    const page = pageFromText(tp);
    expect(page).toMatchObject({ index: 1, source: 'pdf-text', width: 1240, height: 1754, originalWidth: 1240, originalHeight: 1754, rotation: 0 });
    expect(page.lines.map((l) => l.text)).toEqual(['Invoice #42', 'Total € 56.02']);
    expect(page.lines[0]!.confidence).toBe(1);
    const doc = buildDocument([page]);
    expect(doc.text).toBe('Invoice #42\nTotal € 56.02');
    expect(doc.pages[0]!.lineIndices).toEqual([0, 1]);
  });
});
