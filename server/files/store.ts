/**
 * Where file bytes live. The interface is what an S3-compatible store would implement later; the
 * default keeps bytes on local disk under FILES_DIR (default data/files), one folder per account, under
 * names the server generates (never derived from what the client sent).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { DIR_MODE, FILE_MODE } from '../../db/private-files';

export interface FileStore {
  /** Stores the bytes and returns the key to read them back. */
  put(accountId: number, bytes: Buffer): Promise<string>;
  get(key: string): Promise<Buffer>;
  delete(key: string): Promise<void>;
}

/** Storage keys are ours (`<account>/<uuid>`); a tampered row with any other shape is refused by every store. */
export function checkStorageKey(key: string): string {
  if (!/^\d+\/[0-9a-f-]{36}$/.test(key)) throw new Error(`invalid storage key ${key}`);
  return key;
}

/** The clinic a storage key belongs to (its first part). */
export const accountOfKey = (key: string): number => Number(checkStorageKey(key).split('/', 1)[0]);

export class LocalDiskStore implements FileStore {
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    // A tampered row must never reach outside the root.
    return path.join(this.root, checkStorageKey(key));
  }

  async put(accountId: number, bytes: Buffer): Promise<string> {
    const key = `${accountId}/${randomUUID()}`;
    const file = this.resolve(key);
    await fs.mkdir(path.dirname(file), { recursive: true, mode: DIR_MODE });
    await fs.writeFile(file, bytes, { flag: 'wx', mode: FILE_MODE });
    return key;
  }

  get(key: string): Promise<Buffer> {
    return fs.readFile(this.resolve(key));
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.resolve(key), { force: true });
  }
}
