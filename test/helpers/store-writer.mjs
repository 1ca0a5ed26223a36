// Child process for the store durability tests (test/store-kill.test.ts). Uses the built package
// (dist/). Writes to the store at argv[2] in a loop and prints one line per write *after* it committed:
//   scan <trackingId>       a scan stored through the store (one transaction: scan row + usage counter)
//   campaign <id>           a campaign created through an engine (engine.campaigns.create)
//   extract <trackingId>    a verbose extraction stored by an engine (text-layer PDF, no OCR)
// argv: <storePath> <tag> <count> [extractEvery]
import { writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { ReceiptStore } = await import(path.join(root, 'dist/store/store.js'));
const { createEngine } = await import(path.join(root, 'dist/index.js'));

const [file, tag, countArg, extractEveryArg] = process.argv.slice(2);
const count = Number(countArg);
const extractEvery = Number(extractEveryArg ?? 0);
const say = (line) => writeSync(1, `${line}\n`); // synchronous: printed only after the write returned

const store = new ReceiptStore(file);
const engine = await createEngine({ workers: 1, storePath: file });
const invoice = path.join(root, 'fixtures/invoice.pdf');
// a large result makes each transaction many pages, so a kill often lands inside one (or a checkpoint)
const payload = 'x'.repeat(40_000);
say(`ready ${process.pid}`);

for (let i = 0; i < count; i++) {
  const trackingId = `${tag}-${i}`;
  await store.recordScan({
    trackingId, endpoint: 'simple', contentHash: createHash('sha256').update(trackingId).digest('hex'),
    resultKey: 'kill-test', extractionKey: 'kill-test', perceptualHash: null, fingerprint: `m|2024-01-01|${i}.00|`,
    subject: { version: 1, lines: [payload] }, result: { i, payload }, subAccountId: tag,
  });
  say(`scan ${trackingId}`);
  if (i % 10 === 0) {
    const id = `${tag}-c${i}`;
    await engine.campaigns.create(id, { balanceOwing: { max: i } });
    say(`campaign ${id}`);
  }
  if (extractEvery && i % extractEvery === 0) {
    const r = await engine.extract(invoice, { verbose: true, refresh: true, userId: tag });
    say(`extract ${r.trackingId}`);
  }
}
await engine.close();
await store.close();
say('done');
