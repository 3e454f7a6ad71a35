/** The app's version, from package.json at build time. */
export const VERSION = '0.1.0';
