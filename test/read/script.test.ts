/**
 * The script condition and its warning (read/script.ts, ocr/script.ts; issue 50 item 3), without OCR: when a
 * first reading looks unread, what OSD's answer is taken to say, which packages a warning names, and that a
 * readable page never asks for a detection (a stub pool counts the calls).
 */
import { describe, expect, it } from 'vitest';
import { buildDocument } from '../../src/document/geometry.js';
import type { Word } from '../../src/document/types.js';
import { latinCountry, legibility, looksUnread, pageScript, scriptWarning, withoutFigures } from '../../src/read/script.js';
import { SCRIPT_LANGUAGES, isForeignScript, scriptLanguages, toScriptDetection } from '../../src/ocr/script.js';
import type { Readers } from '../../src/read/readers.js';

const word = (text: string, confidence: number, x = 0, y = 0): Word => ({ text, confidence, box: { x0: x, y0: y, x1: x + 60, y1: y + 20 } });
/** A page's words: letter words read at `letters`, figures at `figures`. */
function page(letters: number, figures: number): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < 8; i++) out.push(word(`Word${'abc'[i % 3]}x`, letters, 10, 10 + i * 30), word(`${i + 1}.50`, figures, 300, 10 + i * 30));
  return out;
}

describe('the condition for detecting a page\'s script', () => {
  it('holds for letters read unsurely beside figures read surely (another script read with Latin data)', () => {
    expect(looksUnread(legibility(page(0.4, 0.95)))).toBe(true);
  });
  it('does not hold for a page read surely, nor for a blurred one whose figures read badly too', () => {
    expect(looksUnread(legibility(page(0.92, 0.95)))).toBe(false);
    expect(looksUnread(legibility(page(0.4, 0.4)))).toBe(false);
  });
  it('says nothing on a page of few words', () => {
    expect(looksUnread(legibility([word('Abc', 0.2), word('Def', 0.2), word('1.00', 0.99), word('2.00', 0.99), word('3.00', 0.99)]))).toBe(false);
  });
  it('counts words of letters only as letter words and words with a digit as figures', () => {
    const l = legibility([word('TOTAL', 0.9), word('12.50', 0.9), word('A1', 0.1), word('-', 0.1), word('Хляб', 0.5)]);
    expect(l).toMatchObject({ letterWords: 2, figureWords: 2, confidentShare: 0.5, figureShare: 0.5 });
  });
});

describe('what OSD says', () => {
  it('takes tesseract\'s script confidence halved (0.5 at its acceptance ratio), capped at 0.99', () => {
    expect(toScriptDetection({ script: 'Cyrillic', script_confidence: 2.8, orientation_degrees: 0 })).toEqual({ script: 'Cyrillic', confidence: 0.99, scriptConfidence: 2.8, orientation: 0 });
    expect(toScriptDetection({ script: 'Greek', script_confidence: 0.74, orientation_degrees: 0 })?.confidence).toBe(0.37);
  });
  it('names no script for Common (digits, signs) or none at all', () => {
    expect(toScriptDetection({ script: 'Common', script_confidence: 1.2 })).toBeUndefined();
    expect(toScriptDetection({ script: null, script_confidence: null })).toBeUndefined();
  });
  it('knows which scripts need data of their own, and the likeliest languages of each', () => {
    expect(isForeignScript('Latin')).toBe(false);
    expect(scriptLanguages('Latin')).toEqual([]);
    expect(scriptLanguages('Cyrillic').slice(0, 3)).toEqual(['rus', 'ukr', 'bul']);
    expect(scriptLanguages('Thai')).toEqual(['tha']);
    expect(scriptLanguages('Han')).toEqual(['chi_sim', 'chi_tra']);
    for (const codes of Object.values(SCRIPT_LANGUAGES)) for (const c of codes) expect(c).toMatch(/^[a-z]{3}(_[a-z]+)?$/);
  });
});

describe('the warning', () => {
  it('names the script, the detection\'s confidence and the package that reads it', () => {
    expect(scriptWarning({ script: 'Thai', confidence: 0.93, languages: ['tha'] }, { missing: true }))
      .toBe("the page's text looks Thai (script detection 0.93); install @tesseract.js-data/tha to read it");
  });
  it('names the three likeliest packages of a script several languages write', () => {
    expect(scriptWarning({ script: 'Cyrillic', confidence: 0.99, languages: scriptLanguages('Cyrillic') }, { missing: true }))
      .toBe("the page's text looks Cyrillic (script detection 0.99); install @tesseract.js-data/rus, @tesseract.js-data/ukr or @tesseract.js-data/bul to read it");
  });
  it('says what was read again, and when the first reading stood', () => {
    expect(scriptWarning({ script: 'Greek', confidence: 0.6, languages: ['ell'] }, { read: 'ell+eng', kept: true })).toBe("the page's text looks Greek (script detection 0.60): read again with ell+eng");
    expect(scriptWarning({ script: 'Greek', confidence: 0.6, languages: ['ell'] }, { read: 'ell+eng', kept: false })).toMatch(/first reading kept/);
    expect(scriptWarning({ script: 'Greek', confidence: 0.6, languages: ['ell'] }, { hinted: 'eng' })).toMatch(/read with eng as the language option asks \(ell would read it\)$/);
  });
});

describe('the detection on a page', () => {
  /** A one-page image input and a reading of it, and a stub pool counting detections (OSD answers `answer`). */
  function setup(words: Word[], answer: unknown) {
    const doc = buildDocument([{ index: 0, source: 'ocr', width: 400, height: 300, originalWidth: 400, originalHeight: 300, rotation: 0, lines: words.map((w) => ({ text: w.text, words: [w], box: w.box, confidence: w.confidence })) }]);
    const calls: number[] = [];
    const gray = { gray: Buffer.alloc(400 * 300, 255), width: 400, height: 300 };
    const tesseract = {
      working: async () => ({ ...gray, scale: 1, photo: false, paperLevel: 255, originalWidth: 400, originalHeight: 300, ms: 0 }),
      detectScript: async (img: { gray: Buffer }) => { calls.push(img.gray.length); return toScriptDetection(answer); },
    } as unknown as Readers['tesseract'];
    const input = { pages: [{ kind: 'raster' }] };
    return { doc, calls, run: () => pageScript(input, doc, { tesseract }, new AbortController().signal) };
  }

  it('asks for none on a page that reads well', async () => {
    const s = setup(page(0.95, 0.97), { script: 'Cyrillic', script_confidence: 3, orientation_degrees: 0 });
    expect(await s.run()).toBeUndefined();
    expect(s.calls).toHaveLength(0);
  });
  it('asks for one on a page that looks unread, and names its script and languages', async () => {
    const s = setup(page(0.3, 0.95), { script: 'Cyrillic', script_confidence: 3, orientation_degrees: 0 });
    expect(await s.run()).toMatchObject({ script: 'Cyrillic', confidence: 0.99, page: 0, languages: scriptLanguages('Cyrillic') });
    expect(s.calls).toHaveLength(1);
  });
  it('draws no conclusion when OSD would turn the page (it was read at the wrong orientation) or is unsure', async () => {
    expect(await setup(page(0.3, 0.95), { script: 'Cyrillic', script_confidence: 3, orientation_degrees: 90 }).run()).toBeUndefined();
    expect(await setup(page(0.3, 0.95), { script: 'Greek', script_confidence: 0.7, orientation_degrees: 0 }).run()).toBeUndefined();
  });
});

describe('the image OSD is given', () => {
  it('has the figures painted over in the paper\'s grey and the letters left', () => {
    const img = { gray: Buffer.alloc(200 * 100, 0), width: 200, height: 100 };
    for (let i = 0; i < img.gray.length; i += 7) img.gray[i] = 250; // some paper among the ink, for the paper's level
    const out = withoutFigures(img, [word('12.50', 0.9, 0, 0), word('Хляб', 0.4, 100, 50)], { width: 400, height: 200 });
    // word boxes are in the page's frame (twice the image here): 12.50 covers x 0-30, y 0-10 of the image
    expect(out.gray[5 * 200 + 10]).toBeGreaterThan(200);
    expect(out.gray[30 * 200 + 60]).toBe(img.gray[30 * 200 + 60]);
    expect(img.gray[5 * 200 + 10]).toBe(0); // the input is left as it was
  });
});

describe('a detection the page\'s own evidence contradicts', () => {
  it('latinCountry: a country shown surely whose likeliest language writes in Latin letters (CLDR likely subtags)', () => {
    expect(latinCountry({ country: { code: 'MY', confidence: 0.99 } })).toBe(true);
    expect(latinCountry({ country: { code: 'VN', confidence: 0.95 } })).toBe(true);
    // a country writing in another script, or one shown unsurely, says nothing against the detection
    expect(latinCountry({ country: { code: 'BG', confidence: 0.99 } })).toBe(false);
    expect(latinCountry({ country: { code: 'TH', confidence: 0.99 } })).toBe(false);
    expect(latinCountry({ country: { code: 'MY', confidence: 0.6 } })).toBe(false);
    expect(latinCountry({})).toBe(false);
  });
});
