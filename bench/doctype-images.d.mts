// Types for bench/doctype-images.mjs (the tests import its generator).
export type DoctypeKind = 'chat' | 'web' | 'letter' | 'bank-statement' | 'picture' | 'receipt-screenshot';
export interface DoctypeImage { kind: DoctypeKind; lang: string | null; expect: 'receipt' | 'other'; name: string; bytes: Buffer }
export declare const KINDS: readonly DoctypeKind[];
export declare function doctypeImages(opts?: { perKind?: number; scale?: number; seed?: number; kinds?: readonly DoctypeKind[] }): Promise<DoctypeImage[]>;
