import { defineConfig } from 'vitest/config';

/**
 * Test lanes (issue 52), one vitest project each; `npm test` runs them all, `npm run test:unit` the first.
 * - unit: every test file not listed below: no OCR, no network, no services, no built package (dist/).
 * - ocr: real OCR (tesseract.js, PaddleOCR) on small fixtures and drawn pages, through the engine or the
 *   built CLI, and the other pixel readers (barcodes, the paper in a photo).
 * - system: the built package as a user or a machine meets it: the HTTP server, Chromium, PostgreSQL,
 *   child processes on dist/, the pack-and-install test.
 * test/lanes.test.ts checks that each entry names a file and that no unit file does OCR, starts a service or
 * runs the built package.
 */
export const OCR_TESTS = [
  'test/bad-input.test.ts', 'test/batch.test.ts', 'test/campaigns.test.ts', 'test/codes-engine.test.ts',
  'test/cold-text-pdf.test.ts', 'test/doctype-images.test.ts', 'test/e2e.test.ts', 'test/e2e-vietnamese.test.ts',
  'test/enrich.test.ts', 'test/fraud.test.ts', 'test/fraud-option.test.ts', 'test/geoip.test.ts',
  'test/lifecycle.test.ts', 'test/ocr.test.ts', 'test/paddle.test.ts', 'test/pdf-images.test.ts',
  'test/pdf-thread.test.ts', 'test/process.test.ts', 'test/quiet.test.ts', 'test/similarity.test.ts',
  'test/validate.test.ts', 'test/resolve/calibration.test.ts', 'test/read/faint-ink.test.ts', 'test/read/fast.test.ts',
  'test/read/load-determinism.test.ts', 'test/read/orientation-axis.test.ts', 'test/script-detect.test.ts',
  // the other pixel readers, on drawn pages and photos: the barcode decoder (zxing-wasm), the paper finder
  'test/codes-decode.test.ts', 'test/paper.test.ts',
];

export const SYSTEM_TESTS = [
  'test/pack-install.test.ts', 'test/package-entry.test.ts', 'test/entry-points.test.ts',
  // every server and job-queue test, present and to come (the server, PostgreSQL)
  'test/server*.test.ts', 'test/queue*.test.ts',
  'test/store.test.ts', 'test/store-replicas.test.ts', 'test/store-kill.test.ts',
  // hostile PDFs of tens of MB through the PDF threads and their limits
  'test/pdf-hostile.test.ts',
  // the repository's Node.js scripts in child processes
  'test/node-versions.test.ts',
];

export default defineConfig({
  test: {
    // OCR tests run real tesseract workers: give them room on a slow shared machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...OCR_TESTS, ...SYSTEM_TESTS] } },
      { extends: true, test: { name: 'ocr', include: OCR_TESTS } },
      { extends: true, test: { name: 'system', include: SYSTEM_TESTS } },
    ],
  },
});
