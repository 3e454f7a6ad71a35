/**
 * What services may know of the connection without writing SQL: transactions, whether one is
 * open, and tokens that move when the data may have changed (for answers kept between requests).
 */
import { changeToken, UntilChanged, type ChangeToken } from '../change-token.js';
import type { Sqlite } from '../connection.js';

export class Transactions {
  constructor(private readonly sqlite: Sqlite) {}

  /** Runs `fn` in one transaction (a savepoint inside an open one); a throw rolls it back. */
  run<T>(fn: () => T): T {
    return this.sqlite.transaction(fn)();
  }

  /** Like run, but takes the write lock first, so no other process writes between a check and its insert. */
  immediate<T>(fn: () => T): T {
    return this.sqlite.transaction(fn).immediate();
  }

  /** True inside a transaction: what is read there may still be rolled back. */
  get active(): boolean {
    return this.sqlite.inTransaction;
  }

  changeToken(): ChangeToken {
    return changeToken(this.sqlite);
  }

  untilChanged<K, V>(max?: number): UntilChanged<K, V> {
    return new UntilChanged<K, V>(this.sqlite, max);
  }
}
