import crypto from 'node:crypto';
import fs from 'node:fs';
import { HeraldError } from '../core/errors.js';
import { writePrivateFile } from './file.store.js';
import type { SecretStore } from './secret-store.js';

/**
 * The file store for machines without a keychain, encrypted with a passphrase: one JSON
 * envelope, mode 0600, `{v, kdf: {N, r, p, salt}, iv, tag, data}`. The key is scrypt(passphrase,
 * salt) and the secrets map is sealed with AES-256-GCM, so a wrong passphrase or a changed byte
 * fails the tag check instead of answering garbage. A fresh salt and IV are drawn on every write.
 * The passphrase is never stored: the store starts locked and `unlock` keeps only the derived key
 * in memory. While locked every call fails with SECRET_STORE_LOCKED (a 423 naming the fix), so a
 * publish or connect never mistakes "locked" for "no credentials".
 */
export const SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const MIN_PASSPHRASE = 8;

interface Envelope {
  v: 1;
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string };
  iv: string;
  tag: string;
  data: string;
}

const deriveKey = (passphrase: string, salt: Buffer, k: { N: number; r: number; p: number }) =>
  crypto.scryptSync(passphrase.normalize('NFC'), salt, 32, { N: k.N, r: k.r, p: k.p, maxmem: 256 * k.N * k.r });

export class EncryptedFileSecretStore implements SecretStore {
  readonly kind = 'encrypted' as const;
  private passphrase: string | undefined;
  private cache: Record<string, string> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  get locked(): boolean {
    return this.cache === undefined;
  }
  exists(): boolean {
    return fs.existsSync(this.file);
  }

  get problem(): string | undefined {
    return this.locked
      ? 'Herald is locked: its encrypted secret store waits for the passphrase. Enter it in the banner at the ' +
          'top of the app, or run `herald secrets unlock` (`POST /setup/secrets/unlock`)'
      : undefined;
  }

  /**
   * Opens the store with `passphrase`; creates it when the file does not exist yet. A wrong
   * passphrase is INVALID_CREDENTIALS, and the store stays locked.
   */
  async unlock(passphrase: string): Promise<void> {
    if (passphrase.length < MIN_PASSPHRASE)
      throw new HeraldError('INVALID_INPUT', `The passphrase must be at least ${MIN_PASSPHRASE} characters long`);
    if (!this.exists()) {
      this.passphrase = passphrase;
      this.cache = {};
      this.write({});
      return;
    }
    const env = JSON.parse(fs.readFileSync(this.file, 'utf8')) as Envelope;
    const key = deriveKey(passphrase, Buffer.from(env.kdf.salt, 'base64'), env.kdf);
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(env.iv, 'base64'));
      decipher.setAAD(Buffer.from('herald-secrets-v1'));
      decipher.setAuthTag(Buffer.from(env.tag, 'base64'));
      const plain = Buffer.concat([decipher.update(Buffer.from(env.data, 'base64')), decipher.final()]);
      this.cache = JSON.parse(plain.toString('utf8')) as Record<string, string>;
      this.passphrase = passphrase;
    } catch {
      throw new HeraldError('INVALID_CREDENTIALS', 'That passphrase does not open the secret store');
    }
  }

  /** Forgets the key (the store is locked again). */
  lock(): void {
    this.cache = undefined;
    this.passphrase = undefined;
  }

  private open(): Record<string, string> {
    if (!this.cache) throw new HeraldError('SECRET_STORE_LOCKED', this.problem!);
    return this.cache;
  }

  private write(data: Record<string, string>): void {
    const salt = crypto.randomBytes(16);
    const iv = crypto.randomBytes(12);
    const key = deriveKey(this.passphrase!, salt, SCRYPT);
    const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from('herald-secrets-v1'));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(data), 'utf8'), cipher.final()]);
    const env: Envelope = {
      v: 1,
      kdf: { name: 'scrypt', ...SCRYPT, salt: salt.toString('base64') },
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: sealed.toString('base64'),
    };
    writePrivateFile(this.file, JSON.stringify(env));
  }

  private exclusive<T>(fn: () => T): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async get(name: string) {
    return this.open()[name] ?? null;
  }
  set(name: string, value: string) {
    this.open();
    return this.exclusive(() => {
      const d = { ...this.open(), [name]: value };
      this.write(d);
      this.cache = d;
    });
  }
  delete(name: string) {
    this.open();
    return this.exclusive(() => {
      const d = { ...this.open() };
      if (!(name in d)) return false;
      delete d[name];
      this.write(d);
      this.cache = d;
      return true;
    });
  }
  async names() {
    return Object.keys(this.open());
  }
  setMany(entries: Record<string, string>) {
    this.open();
    return this.exclusive(() => {
      const d = { ...this.open(), ...entries };
      this.write(d);
      this.cache = d;
    });
  }
  deleteMany(names: readonly string[]) {
    this.open();
    return this.exclusive(() => {
      const d = { ...this.open() };
      for (const name of names) delete d[name];
      this.write(d);
      this.cache = d;
    });
  }
}
