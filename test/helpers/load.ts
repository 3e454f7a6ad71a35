/**
 * The benches' load generator. autocannon is a test-only package (test/package.json), found from
 * here by Node's walk up to test/node_modules, which a file under bench/ would not reach.
 */
export { default } from 'autocannon';
