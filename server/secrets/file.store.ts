import fs from 'node:fs';
import path from 'node:path';
import type { SecretStore } from './secret-store.js';

/**
 * Opt-in store for machines without a keychain: one JSON file, mode 0600, replaced atomically
 * (write to a temporary file, fsync, rename) so a crash never leaves half a token.
 */
export class FileSecretStore implements SecretStore {
  readonly kind = 'file' as const;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  private read(): Record<string, string> {
    try {
      return JSON.parse(fs.readFileSync(this.file, 'utf8')) as Record<string, string>;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw err;
    }
  }

  private write(data: Record<string, string>): void {
    writePrivateFile(this.file, JSON.stringify(data));
  }

  /** Serialises read-modify-write cycles within this process. */
  private exclusive<T>(fn: () => T): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async get(name: string) {
    return this.read()[name] ?? null;
  }
  set(name: string, value: string) {
    return this.exclusive(() => {
      const d = this.read();
      d[name] = value;
      this.write(d);
    });
  }
  delete(name: string) {
    return this.exclusive(() => {
      const d = this.read();
      if (!(name in d)) return false;
      delete d[name];
      this.write(d);
      return true;
    });
  }
  async names() {
    return Object.keys(this.read());
  }
}

/** Writes `text` to `file` mode 0600, durably and whole: a temporary file, fsync, then rename. */
export function writePrivateFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}
