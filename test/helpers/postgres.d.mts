export function postgresBinDir(): string | undefined;
export function freePort(): Promise<number>;
export interface RunningPostgres { url: string; port: number; dir: string; bin: string; stop(): void }
export function startPostgres(opts?: { maxConnections?: number }): Promise<RunningPostgres>;
