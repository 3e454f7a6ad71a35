/**
 * Contracts are built on first use (server/contracts/lazy.ts): loading them, as every start-up
 * does, builds no schema. A contract exported as a plain zod schema, or one module building
 * another's schema while it loads (`built(x)` outside a maker), fails here with its name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const DIR = path.resolve('server/contracts');
const files = fs
  .readdirSync(DIR)
  .filter((f) => f.endsWith('.ts') && f !== 'lazy.ts')
  .sort();
const isSchema = (v: unknown): v is z.ZodType => typeof v === 'object' && v !== null && '_zod' in v;
type LazyDef = { type: string; _cachedInner?: unknown };

describe('contracts are built when first used', () => {
  it('every exported schema is lazy, and loading every contract module builds none of them', async () => {
    const modules = await Promise.all(files.map(async (f) => [f, await import(path.join(DIR, f))] as const));
    const schemas: [string, z.ZodType][] = modules.flatMap(([f, m]) =>
      Object.entries(m as Record<string, unknown>)
        .filter((e): e is [string, z.ZodType] => isSchema(e[1]))
        .map(([name, s]) => [`${f}: ${name}`, s] as [string, z.ZodType]),
    );
    expect(schemas.length).toBeGreaterThan(150);
    const eager = schemas.filter(([, s]) => (s._zod.def as LazyDef).type !== 'lazy').map(([n]) => n);
    expect(eager, 'exported as built schemas (wrap them in lazySchema)').toEqual([]);
    const builtEarly = schemas.filter(([, s]) => (s._zod.def as LazyDef)._cachedInner !== undefined).map(([n]) => n);
    expect(builtEarly, 'built while the contract modules loaded').toEqual([]);

    // Each one builds, to the schema it stands for, and validates through the stand-in.
    for (const [name, s] of schemas) {
      const inner = (s as z.ZodLazy<z.ZodType>)._zod.innerType;
      expect((inner._zod.def as LazyDef).type, name).not.toBe('lazy');
    }
    const { createTemplateBody, updateTemplateBody } = await import('../../server/contracts/templates.js');
    expect(createTemplateBody.safeParse({ name: '  Launch  ' })).toMatchObject({
      success: true,
      data: { name: 'Launch' },
    });
    expect(createTemplateBody.safeParse({ name: '' }).success).toBe(false);
    expect(updateTemplateBody.safeParse({}).success).toBe(true);
  });
});
