/**
 * `node --import ./no-keytar.mjs …`: makes the optional `keytar` package unresolvable, as on a
 * machine where it could not be built (no libsecret headers) and npm skipped it. Herald's own
 * code runs unchanged; only the third-party module is absent.
 */
import { register } from 'node:module';

const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === 'keytar' || specifier.startsWith('keytar/')) {
    const err = new Error("Cannot find package 'keytar' imported from " + context.parentURL);
    err.code = 'ERR_MODULE_NOT_FOUND';
    throw err;
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
