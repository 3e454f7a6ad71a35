/** Bluesky adapter pieces with no network: facet spans in UTF-8 bytes, image headers, error kinds, PDS discovery. */
import { describe, expect, it } from 'vitest';
import { buildFacets, detectSpans, textProblem } from '../../server/platforms/skyblog/facets.js';
import { imageSize } from '../../server/platforms/skyblog/images.js';
import { jwtExpiry, pdsFromDidDoc } from '../../server/platforms/skyblog/session.js';
import { xrpcError } from '../../server/platforms/skyblog/xrpc.js';
import { makePng } from '../peers/png.js';

const slices = async (text: string) => {
  const bytes = Buffer.from(text, 'utf8');
  const facets = await buildFacets(text, async (h) => (h === 'known.test' ? 'did:plc:known' : null));
  return facets.map((f) => [bytes.subarray(f.index.byteStart, f.index.byteEnd).toString('utf8'), f.features[0]]);
};

describe('facets', () => {
  it('trims trailing punctuation and unbalanced parentheses from links', async () => {
    expect((await slices('(see https://example.com/a_(b)).')).map((s) => s[0])).toEqual(['https://example.com/a_(b)']);
    expect((await slices('go to https://x.org/path!?')).map((s) => s[0])).toEqual(['https://x.org/path']);
  });

  it('links bare domains with common endings only', async () => {
    expect(await slices('visit example.com/docs today')).toEqual([
      ['example.com/docs', { $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/docs' }],
    ]);
    expect(await slices('open notes.txt please')).toEqual([]);
  });

  it('gives a mention a DID, or no facet when the handle does not resolve', async () => {
    expect(await slices('hi @known.test and @unknown.test.')).toEqual([
      ['@known.test', { $type: 'app.bsky.richtext.facet#mention', did: 'did:plc:known' }],
    ]);
  });

  it('finds hashtags after spaces, not inside URLs, not all digits, with full-width ＃', async () => {
    const spans = detectSpans('#one https://a.com/#frag #123 ＃二つ #three!');
    expect(spans.filter((s) => s.kind === 'tag').map((s) => s.value)).toEqual(['one', '二つ', 'three']);
  });

  it('counts graphemes and bytes the way Bluesky does', () => {
    // A family emoji is one grapheme but 25 bytes.
    expect(textProblem('👩‍👩‍👧‍👦'.repeat(100))).toBeNull();
    expect(textProblem('👩‍👩‍👧‍👦'.repeat(150))).toMatch(/3000 bytes/);
    expect(textProblem('a'.repeat(301))).toMatch(/300 characters/);
    expect(textProblem('日'.repeat(299) + 'x')).toBeNull();
  });
});

describe('images', () => {
  it('reads PNG dimensions from the header', () => {
    expect(imageSize(makePng(123, 45))).toEqual({ width: 123, height: 45 });
    expect(imageSize(Buffer.from('not an image'))).toBeNull();
  });

  it('reads JPEG dimensions from the start-of-frame segment', () => {
    // SOI, an APP0 segment, then SOF0 with height 300 and width 200.
    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x2c, 0x00, 0xc8, 0x03, 0, 0,
      0, 0, 0, 0, 0, 0, 0,
    ]);
    expect(imageSize(jpeg)).toEqual({ width: 200, height: 300 });
  });
});

describe('errors', () => {
  const err = (status: number, body: object, headers: Record<string, string> = {}) =>
    xrpcError(status, new Headers(headers), body, 'publish the post', 'pds.example');

  it('maps XRPC errors to kinds', () => {
    expect(err(400, { error: 'ExpiredToken', message: 'Token has expired' }).kind).toBe('token_expired');
    expect(err(400, { error: 'InvalidToken', message: 'Token could not be verified' }).kind).toBe('token_expired');
    expect(err(502, { error: 'UpstreamFailure', message: 'Upstream service unreachable' }).kind).toBe('transient');
    const bad = err(400, { error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: blob too big' });
    expect(bad.kind).toBe('permanent');
    expect(bad.message).toContain('blob too big');
  });

  it('takes the reset of a 429 from RateLimit-Reset (Unix seconds)', () => {
    const e = err(
      429,
      { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
      { 'RateLimit-Reset': '1795000000' },
    );
    expect(e.kind).toBe('rate_limited');
    expect(e.resetAt).toBe(1_795_000_000_000);
  });
});

describe('sessions', () => {
  it('takes the PDS from the #atproto_pds service entry of the DID document', () => {
    const doc = {
      id: 'did:plc:x',
      service: [
        { id: '#other', type: 'X', serviceEndpoint: 'https://other.example' },
        { id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: 'https://pds.example/' },
      ],
    };
    expect(pdsFromDidDoc(doc)).toBe('https://pds.example');
    expect(
      pdsFromDidDoc({ service: [{ id: '#atproto_pds', serviceEndpoint: 'javascript:alert(1)' }] }),
    ).toBeUndefined();
    expect(pdsFromDidDoc(undefined)).toBeUndefined();
  });

  it('reads a JWT expiry', () => {
    const jwt = ['e30', Buffer.from(JSON.stringify({ exp: 1800000000 })).toString('base64url'), 'sig'].join('.');
    expect(jwtExpiry(jwt)).toBe(1_800_000_000_000);
    expect(jwtExpiry('garbage')).toBeUndefined();
  });
});
