/**
 * The pure parts of the Threads and LinkedIn adapters: LinkedIn's little-text escaping (an
 * unescaped reserved character makes LinkedIn silently cut the post there, docs/decisions.md §19.5),
 * and how each network's error bodies become one kind (docs/decisions.md §19): token
 * problems reconnect, limits wait (LinkedIn until midnight UTC), server trouble retries, the
 * rest is refused with the network's own words.
 */
import { describe, expect, it } from 'vitest';
import { escapeLittleText, unescapeLittleText } from '../../server/platforms/problog/little-text.js';
import { linkedinError, nextUtcMidnight } from '../../server/platforms/problog/rest.js';
import { trustedUploadUrl } from '../../server/platforms/problog/images.js';
import { graphError, MEDIA_NOT_FOUND } from '../../server/platforms/threadblog/graph.js';
import { cleanCode } from '../../server/platforms/threadblog/oauth.js';

describe('LinkedIn little text', () => {
  const table: [string, string][] = [
    ['plain words stay', 'plain words stay'],
    ['back\\slash', 'back\\\\slash'],
    ['a|b{c}d@e[f]g(h)i<j>k#l*m_n~o', 'a\\|b\\{c\\}d\\@e\\[f\\]g\\(h\\)i\\<j\\>k\\#l\\*m\\_n\\~o'],
    // The backslash is escaped once, before the escapes the other characters get.
    ['\\#', '\\\\\\#'],
    ['@[Ada](urn:li:person:1)', '\\@\\[Ada\\]\\(urn:li:person:1\\)'],
    ['#launch day', '\\#launch day'],
    ['emoji 🎉 and café_au_lait', 'emoji 🎉 and café\\_au\\_lait'],
    ['see https://example.com/a_b?x=(1)#frag now', 'see https://example.com/a_b?x=(1)#frag now'],
    ['(https://example.com/path_1)', '\\(https://example.com/path_1\\)'],
    ['end with a link: https://example.com/x_y.', 'end with a link: https://example.com/x_y.'],
    ['two http://a.test/_ and https://b.test/*', 'two http://a.test/_ and https://b.test/*'],
    ['not a link: example.com/a_b', 'not a link: example.com/a\\_b'],
  ];
  it.each(table)('%j → %j', (input, escaped) => {
    expect(escapeLittleText(input)).toBe(escaped);
  });

  it('round-trips through what a member sees', () => {
    for (const [input] of table) expect(unescapeLittleText(escapeLittleText(input))).toBe(input);
  });
});

describe('Threads Graph errors', () => {
  const graph = (error: Record<string, unknown>) => ({ error: { type: 'OAuthException', fbtrace_id: 'x', ...error } });

  it('code 190 means the token is no good', () => {
    const e = graphError(
      400,
      graph({ code: 190, message: 'Error validating access token: Session has expired' }),
      'publish the post',
    );
    expect(e.kind).toBe('token_expired');
    expect(e.message).toContain('Session has expired');
  });

  it.each([4, 17, 32, 613])('code %i is a rate limit', (code) => {
    expect(graphError(400, graph({ code, message: 'Application request limit reached' }), 'publish').kind).toBe(
      'rate_limited',
    );
  });

  it('HTTP 429 is a rate limit whatever the body', () => {
    expect(graphError(429, 'Too Many Requests', 'publish').kind).toBe('rate_limited');
  });

  it('Media Not Found (24/4279009) is transient and marked for the publish retry', () => {
    const e = graphError(
      400,
      graph({
        code: 24,
        error_subcode: 4279009,
        message: 'The requested resource does not exist',
        error_user_title: 'Media Not Found',
      }),
      'publish the post',
    );
    expect(e.kind).toBe('transient');
    expect(e.opts.code).toBe(MEDIA_NOT_FOUND);
  });

  it('code 24 with another subcode is not the race', () => {
    const e = graphError(400, graph({ code: 24, error_subcode: 1, message: 'Not found' }), 'publish');
    expect(e.kind).toBe('permanent');
    expect(e.opts.code).toBe('24');
  });

  it('is_transient and 5xx are transient', () => {
    expect(graphError(400, graph({ code: 100, is_transient: true, message: 'try later' }), 'x').kind).toBe('transient');
    expect(graphError(503, '', 'x').kind).toBe('transient');
    expect(graphError(500, graph({ code: 100, message: 'boom' }), 'x').kind).toBe('transient');
  });

  it("anything else is permanent, in Threads' words", () => {
    const e = graphError(
      400,
      graph({
        code: 100,
        error_subcode: 2207051,
        message: 'We restrict certain activity to protect our community',
        error_user_title: 'Action blocked',
      }),
      'publish the post',
    );
    expect(e.kind).toBe('permanent');
    expect(e.message).toBe(
      'Threads refused to publish the post: Action blocked: We restrict certain activity to protect our community',
    );
    expect(e.status).toBe(400);
  });

  it('strips the #_ Threads appends to the code', () => {
    expect(cleanCode('AQBx9#_')).toBe('AQBx9');
    expect(cleanCode('AQBx9')).toBe('AQBx9');
  });
});

describe('LinkedIn errors', () => {
  const now = Date.parse('2026-11-22T23:10:00Z');

  it('401 means reconnect, whatever the service code', () => {
    const e = linkedinError(
      401,
      { status: 401, serviceErrorCode: 65601, message: 'The token used in the request has been revoked by the user' },
      'publish the post',
      now,
    );
    expect(e.kind).toBe('token_expired');
    expect(e.opts.code).toBe('65601');
    expect(e.message).toContain('revoked by the user');
  });

  it('429 waits until the next midnight UTC', () => {
    const e = linkedinError(
      429,
      { status: 429, message: 'Resource level throttle limit for calls to this resource is reached' },
      'publish the post',
      now,
    );
    expect(e.kind).toBe('rate_limited');
    expect(e.resetAt).toBe(Date.parse('2026-11-23T00:00:00Z'));
  });

  it('next midnight UTC from any moment of a day, month and year end', () => {
    expect(nextUtcMidnight(Date.parse('2026-11-22T00:00:00Z'))).toBe(Date.parse('2026-11-23T00:00:00Z'));
    expect(nextUtcMidnight(Date.parse('2026-12-31T23:59:59.999Z'))).toBe(Date.parse('2027-01-01T00:00:00Z'));
  });

  it("5xx is transient; 4xx is permanent with LinkedIn's message", () => {
    expect(linkedinError(503, 'Service Unavailable', 'x', now).kind).toBe('transient');
    const e = linkedinError(
      422,
      { status: 422, message: 'ERROR :: /commentary :: field is required but not found and has no default value' },
      'publish the post',
      now,
    );
    expect(e.kind).toBe('permanent');
    expect(e.message).toBe(
      'LinkedIn refused to publish the post: ERROR :: /commentary :: field is required but not found and has ' +
        'no default value',
    );
    expect(
      linkedinError(
        400,
        { error: 'invalid_grant', error_description: 'The provided authorization grant is invalid' },
        'x',
        now,
      ).message,
    ).toContain('authorization grant is invalid');
  });

  it('sends the token only to LinkedIn hosts or the configured API host', () => {
    expect(trustedUploadUrl('https://www.linkedin.com/dms-uploads/abc', 'https://api.linkedin.com')).toBe(true);
    expect(trustedUploadUrl('http://127.0.0.1:5000/upload/1', 'http://127.0.0.1:5000')).toBe(true);
    expect(trustedUploadUrl('https://evil.example/linkedin.com', 'https://api.linkedin.com')).toBe(false);
    expect(trustedUploadUrl('https://linkedin.com.evil.example/x', 'https://api.linkedin.com')).toBe(false);
    expect(trustedUploadUrl('http://www.linkedin.com/x', 'https://api.linkedin.com')).toBe(false);
    expect(trustedUploadUrl('not a url', 'https://api.linkedin.com')).toBe(false);
  });
});
