/**
 * Contracts are built when first used, not when their module loads. Building every zod schema
 * object was a noticeable part of every start-up's CPU (figures: README, Performance), though a
 * start answers its first requests with a handful of them. Each exported schema is a `z.lazy` (a
 * real zod schema, cheap to make) whose inside is built on its first parse or document: route
 * definitions, the OpenAPI generator, validation and `z.infer` see a zod schema as before.
 *
 * A schema derived from another (`.extend`, `.partial`, `.pick`, `.shape`) reaches the built
 * schema through `built(x)`, inside its own lazy maker, so deriving builds nothing early either.
 */
import { z } from 'zod';

export const lazySchema = <T extends z.ZodType>(make: () => T): z.ZodLazy<T> => z.lazy(make);

/**
 * The schema a lazy one stands for, built on first call and then the same object (zod's own
 * `unwrap()` runs the maker again, making a second copy).
 */
export const built = <T extends z.ZodType>(lazy: z.ZodLazy<T>): T => lazy._zod.innerType;
