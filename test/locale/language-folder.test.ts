import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLanguage } from '../../src/locale/languages/index.js';

// Issue 50 item 2: a new language is one folder. The test copies src/ (inside the repository, so that
// its packages resolve), adds one folder with a handful of Swedish words to the copy's
// locale/languages/, and reads the same receipt with the copy before and after: no other file is touched.
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, '../..');
const work = path.join(repo, '.test-tmp', `language-folder-${process.pid}`);

const SWEDISH = {
  code: 'sv',
  chrono: 'sv',
  months: [[1, 'januari'], [2, 'februari'], [3, 'mars'], [4, 'april'], [5, 'maj'], [6, 'juni'], [7, 'juli'], [8, 'augusti'], [9, 'september'], [10, 'oktober'], [11, 'november'], [12, 'december']],
  cues: ['KVITTO', 'ATT BETALA', 'KONTANT', 'VAXEL'],
  taxWords: ['MOMS'],
  labels: [
    { role: 'change', strength: 2, phrases: ['VAXEL', 'VAXEL TILLBAKA'] },
    { role: 'paid', strength: 1.8, phrases: ['KONTANT', 'ERHALLET'] },
    { role: 'total', strength: 3.5, final: true, phrases: ['ATT BETALA', 'SUMMA ATT BETALA'] },
  ],
  // the finders' word lists come from the folders too: a document title is cut from the name printed with it
  words: { titles: ['KVITTO'] },
};

// A receipt whose labels only Swedish names: the cash handed over is the largest amount on it.
const RECEIPT = ['KVITTO KAFE SOLROS AB', 'Storgatan 3', 'KVITTO', 'Kaffe 45,00', 'Bulle 30,00', 'ATT BETALA 75,00', 'KONTANT 100,00', 'VAXEL 25,00', '12 maj 2024'];

async function readWith(srcRoot: string) {
  const { extractFields } = await import(path.join(srcRoot, 'extract/index.ts'));
  const { documentFromText } = await import(path.join(srcRoot, 'document/geometry.ts'));
  const { LANGUAGES } = await import(path.join(srcRoot, 'locale/languages/index.ts'));
  const f = extractFields(documentFromText(RECEIPT.join('\n')), { extractTime: false, now: new Date('2024-06-01T00:00:00Z') });
  return { total: f.totalAmount?.value as number | undefined, name: f.merchantName?.value as string | undefined, date: f.date?.value as string | undefined, languages: (LANGUAGES as Array<{ code: string }>).map((l) => l.code) };
}

describe('a new language is one folder (src/locale/languages/<code>/words.json)', () => {
  const before = path.join(work, 'before');
  const after = path.join(work, 'after');
  beforeAll(() => {
    fs.rmSync(work, { recursive: true, force: true });
    fs.cpSync(path.join(repo, 'src'), before, { recursive: true });
    fs.cpSync(path.join(repo, 'src'), after, { recursive: true });
    fs.mkdirSync(path.join(after, 'locale/languages/sv'));
    fs.writeFileSync(path.join(after, 'locale/languages/sv/words.json'), JSON.stringify(SWEDISH));
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('the folder alone changes the total and the date read from a Swedish receipt', async () => {
    const without = await readWith(before);
    const withSv = await readWith(after);
    expect(without.languages).not.toContain('sv');
    expect(withSv.languages).toContain('sv');
    expect(withSv.languages.at(-1)).toBe('en'); // a new folder is weighed before English, which needs a clear lead
    expect(without.total).not.toBe(75);
    expect(withSv.total).toBe(75);
    expect(withSv.date).toMatch(/^2024-05-12/);
    expect(without.date ?? 'none').not.toMatch(/^2024-05-12/);
    expect(without.name).toBe('KVITTO KAFE SOLROS AB');
    expect(withSv.name).toBe('KAFE SOLROS AB');
  }, 60_000);

  it('a malformed folder is an error naming its file and field, not a silent skip', () => {
    const dir = path.join(work, 'bad', 'xx');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'words.json'), JSON.stringify({ code: 'xx', cues: 'KVITTO' }));
    expect(() => readLanguage(dir)).toThrow(/xx[\\/]words\.json: cues/);
    fs.writeFileSync(path.join(dir, 'words.json'), JSON.stringify({ code: 'yy' }));
    expect(() => readLanguage(dir)).toThrow(/is not the folder's name/);
    fs.writeFileSync(path.join(dir, 'words.json'), '{"code": "xx",');
    expect(() => readLanguage(dir)).toThrow(/xx[\\/]words\.json: not JSON/);
    fs.writeFileSync(path.join(dir, 'words.json'), JSON.stringify({ code: 'xx', labels: [{ role: 'total', strength: 3, phrases: ['A(B'] }] }));
    expect(() => readLanguage(dir)).toThrow();
    fs.writeFileSync(path.join(dir, 'words.json'), JSON.stringify({ code: 'xx', words: { titels: ['KVITTO'] } }));
    expect(() => readLanguage(dir)).toThrow(/xx[\\/]words\.json: words: Unrecognized key/);
    fs.writeFileSync(path.join(dir, 'words.json'), JSON.stringify({ code: 'xx', words: { titles: ['(KVITTO'] } }));
    expect(() => readLanguage(dir)).toThrow(/Invalid regular expression/);
  });
});
