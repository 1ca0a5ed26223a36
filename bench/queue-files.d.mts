// Types for bench/queue-files.mjs (test/queue-process.test.ts imports its generators).
export declare function receiptLines(n: number): { total: number; lines: string[] };
export declare function textReceiptPdf(n: number): Buffer;
export declare function scanReceipt(n: number): Promise<Buffer>;
export declare function writeQueueFiles(dir: string, opts?: { pdfs?: number; scans?: number; first?: number }): Promise<{ pdfs: string[]; scans: string[] }>;
