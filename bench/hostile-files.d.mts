// Types for bench/hostile-files.mjs (the tests import its generators).
export interface HostileFile { bytes: Buffer; expect: string[]; what: string }
export declare function pdfOf(objects: Array<string | Buffer>, opts?: { trailerExtra?: string }): Buffer;
export declare function streamOf(dict: string, data: string | Buffer): Buffer;
export declare function deflatedRun(n: number, fill?: number): Buffer;
export declare function pdfWithImage(width: number, height: number, opts?: { colorSpace?: string; components?: number; images?: number }): Buffer;
export declare function pdfWithJpegs(jpeg: Buffer, width: number, height: number, images?: number): Buffer;
export declare function pdfWithContentBomb(bytes: number): Buffer;
export declare function pdfHugeMediaBox(side?: number): Buffer;
export declare function pdfManyPages(pages?: number): Buffer;
export declare function pdfHugeCount(count?: number): Buffer;
export declare function bitFlipped(bytes: Buffer, opts?: { flips?: number; seed?: number; skip?: number }): Buffer;
export declare function hostileFiles(): Record<string, HostileFile>;
