// The LinkedIn simulator's comments (linkedin.comments.ts) over HTTP, as LinkedIn's Comments API
// takes them: versioned headers and a token, the member as actor, an existing post, 1,250 characters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinkedInSimulator, type LinkedInSimulator } from './linkedin.simulator.js';

let sim: LinkedInSimulator;
let token: string;
let author: string;
let post: string;

const headers = (extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${token}`,
  'linkedin-version': '202601',
  'x-restli-protocol-version': '2.0.0',
  'content-type': 'application/json',
  ...extra,
});
const comment = (text: string, opts: { on?: string; actor?: string; headers?: Record<string, string> } = {}) =>
  fetch(`${sim.url}/rest/socialActions/${encodeURIComponent(opts.on ?? post)}/comments`, {
    method: 'POST',
    headers: opts.headers ?? headers(),
    body: JSON.stringify({ actor: opts.actor ?? author, object: opts.on ?? post, message: { text } }),
  });

beforeAll(async () => {
  sim = await startLinkedInSimulator();
  const member = sim.state.members[0]!;
  author = `urn:li:person:${member.sub}`;
  token = 'li-comments-test-token';
  sim.state.tokens.set(token, { sub: member.sub, scopes: ['w_member_social'], expiresAt: Date.now() + 60_000 });
  const res = await fetch(`${sim.url}/rest/posts`, {
    method: 'POST',
    headers: headers(),
    body: JSON.stringify({
      author,
      commentary: 'A post to comment on',
      visibility: 'PUBLIC',
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: 'PUBLISHED',
    }),
  });
  post = res.headers.get('x-restli-id')!;
});
afterAll(() => sim.close());

describe('LinkedIn simulator: comments', () => {
  it('creates a comment on the post (201, the comment with its URN) and records it', async () => {
    const res = await comment('First comment');
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ actor: author, object: post, message: { text: 'First comment' } });
    expect(body.$URN).toMatch(new RegExp(`^urn:li:comment:\\(${post.replace(/[()]/g, '\\$&')},\\d+\\)$`));
    expect(res.headers.get('x-restli-id')).toBe(body.$URN);
    expect(sim.comments.at(-1)).toMatchObject({ urn: body.$URN, object: post, text: 'First comment' });
    expect(sim.requests.at(-1)).toBe(`POST /rest/socialActions/${encodeURIComponent(post)}/comments`);
    const list = await fetch(`${sim.url}/rest/socialActions/${encodeURIComponent(post)}/comments`, {
      headers: headers(),
    });
    expect((await list.json()).elements.map((c: any) => c.message.text)).toEqual(['First comment']);
  });

  it("refuses what LinkedIn refuses, in LinkedIn's error shape, and records nothing", async () => {
    const before = sim.comments.length;
    const refused = async (res: Response, status: number, message: RegExp) => {
      expect(res.status).toBe(status);
      const body = await res.json();
      expect(body).toMatchObject({ status, message: expect.stringMatching(message) });
    };
    await refused(await comment('x', { headers: headers({ 'linkedin-version': '' }) }), 400, /version/i);
    await refused(await comment('x', { headers: headers({ authorization: 'Bearer nope' }) }), 401, /token/i);
    await refused(await comment('x', { actor: 'urn:li:person:someone' }), 403, /permissions/);
    await refused(await comment('x', { on: 'urn:li:share:1' }), 404, /urn:li:share:1/);
    await refused(await comment('a'.repeat(1251)), 422, /message\/text.*1250/);
    expect(sim.comments.length).toBe(before);
    expect((await comment('a'.repeat(1250))).status).toBe(201);
  });
});
