import type { ChildProcess } from 'node:child_process';
export const CLI: string;
export interface Replica {
  url: string; port: number; child: ChildProcess; logs: any[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string; stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}
export function startReplica(o: { configPath: string; env?: Record<string, string>; args?: string[]; timeoutMs?: number }): Promise<Replica>;
export interface Res { status: number; json: any; text: string }
export function request(url: string, o?: { method?: string; headers?: Record<string, string>; body?: Buffer | string }): Promise<Res>;
export function sendJson(url: string, key: string, value: unknown, method?: string): Promise<Res>;
export function postFile(url: string, key: string, file: Buffer, fields?: Record<string, string>, filename?: string): Promise<Res>;
export const CAMPAIGN_VALIDATE: string;
export const CAMPAIGN_SETTINGS: string;
export const VERBOSE_FILE: string;
