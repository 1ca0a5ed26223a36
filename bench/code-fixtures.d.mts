// Types for bench/code-fixtures.mjs (the tests import its generators).
export interface FiscalSample { scheme: string; variant?: string; format?: string; text: string; fields: Record<string, string | number> }
export interface CodeModules { cols: number; rows: number; dark(x: number, y: number): boolean }
export declare function zatcaTlv(values: string[]): string;
export declare function nfeKey(parts?: Record<string, string>): string;
export declare function fiscalSamples(): FiscalSample[];
export declare function codeModules(text: string, format?: string): Promise<CodeModules>;
export declare function codeSvg(m: CodeModules, x: number, y: number, module: number, barHeight?: number): string;
export declare function receiptWithCode(text: string, opts?: { format?: string; module?: number; blur?: number; tilt?: number; quality?: number; width?: number; lines?: string[] }): Promise<{ bytes: Buffer; box: { x: number; y: number; width: number; height: number } }>;
export declare function photoWithCode(photo: Buffer | string, text: string, opts?: { format?: string; module?: number; blur?: number; tilt?: number; x?: number; y?: number; quality?: number }): Promise<{ bytes: Buffer | null; fits: boolean }>;
