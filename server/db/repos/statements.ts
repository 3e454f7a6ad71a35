/**
 * A repo's prepared statements, each prepared when first used. Preparing all of them cost every
 * start-up, though a start runs a dozen; the first use pays for one instead (README, Performance). The
 * object has one property per statement: a getter that prepares it and then stands as a plain
 * value. test/unit/repo-statements.test.ts prepares every one of them against the migrated
 * schema, so a statement that no longer matches the tables still fails a test, not a user.
 */
export type Statements<T extends Record<string, () => unknown>> = { readonly [K in keyof T]: ReturnType<T[K]> };

/** Marks a statements object (not enumerable), so a test can find and prepare them all. */
export const STATEMENTS = Symbol.for('herald.statements');

export function lazyStatements<T extends Record<string, () => unknown>>(makers: T): Statements<T> {
  const out = {} as Record<string | symbol, unknown>;
  Object.defineProperty(out, STATEMENTS, { value: true });
  for (const [name, make] of Object.entries(makers)) {
    Object.defineProperty(out, name, {
      configurable: true,
      enumerable: true,
      get() {
        const value = make();
        Object.defineProperty(out, name, { value, enumerable: true, writable: false, configurable: false });
        return value;
      },
    });
  }
  return out as Statements<T>;
}
