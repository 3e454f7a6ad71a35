/**
 * The X and Mastodon adapters turn each network's error bodies and rate-limit headers into one
 * kind and one sentence (docs/decisions.md §19). These pin the parsing of the shapes
 * the networks document, including the ones that break naive code (ISO resets with microseconds,
 * the 24-hour X allowance, a validation problem whose detail is generic).
 */
import { describe, expect, it } from 'vitest';
import { describeXError, rateLimitReset, xError } from '../../server/platforms/microblog/http.js';
import { describeMastoError, mastoError, parseIsoReset } from '../../server/platforms/fedblog/http.js';
import { mastoHtmlToText, sameStatusText } from '../../server/platforms/fedblog/text.js';

const headers = (h: Record<string, string>) => new Headers(h);

describe('X error bodies', () => {
  it('reads an RFC 7807 problem', () => {
    expect(
      describeXError(
        {
          title: 'Forbidden',
          detail: 'You are not permitted to perform this action.',
          type: 'about:blank',
          status: 403,
        },
        403,
      ),
    ).toBe('You are not permitted to perform this action.');
  });

  it('prefers the specific validation messages over the generic detail', () => {
    const body = {
      errors: [{ parameters: { text: ['x'.repeat(300)] }, message: 'Value is too long.' }],
      title: 'Invalid Request',
      detail: 'One or more parameters to your request was invalid.',
      type: 'https://api.twitter.com/2/problems/invalid-request',
    };
    expect(describeXError(body, 400)).toBe('Value is too long. (text)');
  });

  it('reads the v1-style errors list and OAuth errors', () => {
    expect(describeXError({ errors: [{ code: 88, message: 'Rate limit exceeded' }] }, 429)).toBe('Rate limit exceeded');
    expect(
      describeXError(
        { error: 'invalid_request', error_description: 'Value passed for the authorization code was invalid.' },
        400,
      ),
    ).toBe('Value passed for the authorization code was invalid.');
    expect(describeXError('', 502)).toBe('HTTP 502');
  });

  it('maps statuses to kinds', () => {
    expect(xError(401, headers({}), { title: 'Unauthorized' }, 'publish the post').kind).toBe('token_expired');
    expect(xError(503, headers({}), {}, 'publish the post').kind).toBe('transient');
    const dup = xError(
      403,
      headers({}),
      { detail: 'You are not allowed to create a Tweet with duplicate content.' },
      'publish the post',
    );
    expect(dup.kind).toBe('permanent');
    expect(dup.message).toMatch(/already published the same text/);
    expect(
      xError(400, headers({}), { detail: 'The Tweet contains an invalid URL.' }, 'publish the post').message,
    ).toContain('invalid URL');
  });

  it('takes the reset from x-rate-limit-reset, or the spent 24-hour allowance', () => {
    expect(rateLimitReset(headers({ 'x-rate-limit-reset': '1767269100' }))).toBe(1767269100_000);
    const daily = headers({
      'x-rate-limit-reset': '1767269100',
      'x-user-limit-24hour-remaining': '0',
      'x-user-limit-24hour-reset': '1767340000',
    });
    expect(rateLimitReset(daily)).toBe(1767340000_000);
    const e = xError(429, daily, { title: 'Too Many Requests', status: 429 }, 'publish the post');
    expect(e.kind).toBe('rate_limited');
    expect(e.resetAt).toBe(1767340000_000);
  });
});

describe('Mastodon error bodies', () => {
  it('parses the ISO 8601 reset with microseconds', () => {
    expect(parseIsoReset('2026-01-01T12:05:00.123456Z')).toBe(Date.parse('2026-01-01T12:05:00.123Z'));
    expect(parseIsoReset('not a date')).toBeUndefined();
    const e = mastoError(
      429,
      headers({ 'x-ratelimit-reset': '2026-01-01T12:05:00.000000Z' }),
      { error: 'Too many requests' },
      'publish the post',
      'example.social',
    );
    expect(e.kind).toBe('rate_limited');
    expect(e.resetAt).toBe(Date.parse('2026-01-01T12:05:00Z'));
  });

  it('maps {error} bodies', () => {
    expect(
      describeMastoError(
        { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid' },
        400,
      ),
    ).toBe('The provided authorization grant is invalid');
    expect(mastoError(401, headers({}), { error: 'The access token is invalid' }, 'publish the post', 'h').kind).toBe(
      'token_expired',
    );
    const processing = mastoError(
      422,
      headers({}),
      { error: 'Cannot attach files that have not finished processing. Try again in a moment!' },
      'publish the post',
      'h',
    );
    expect(processing.kind).toBe('transient');
    const tooLong = mastoError(
      422,
      headers({}),
      { error: 'Validation failed: Text character limit of 500 exceeded' },
      'publish the post',
      'h',
    );
    expect(tooLong.kind).toBe('permanent');
    expect(tooLong.message).toContain('character limit of 500');
  });
});

describe('Mastodon status HTML', () => {
  it('recovers the plain text, links included', () => {
    const html =
      '<p>Hello &amp; welcome<br />line two</p><p>see <a href="https://example.com/a/long/path" ' +
      'rel="nofollow noopener" target="_blank"><span class="invisible">https://</span><span ' +
      'class="ellipsis">example.com/a/lon</span><span class="invisible">g/path</span></a></p>';
    expect(mastoHtmlToText(html)).toBe('Hello & welcome\nline two\n\nsee https://example.com/a/long/path');
    expect(sameStatusText(html, 'Hello & welcome\nline two\n\nsee https://example.com/a/long/path')).toBe(true);
    expect(sameStatusText(html, 'Hello & welcome')).toBe(false);
  });
});
