/**
 * One contract for every network adapter, run against each network's simulator (real wire
 * protocol on loopback) through Herald's HTTP API where it exists and the real credentials
 * service otherwise: OAuth connection into the default set, a post and its public URL, a thread
 * as the network threads it (resumed after its sent parts), two images with alt text, 429 with
 * the network's reset, a lost answer that is never sent twice, one token refresh for 50 racing
 * publishes, a refused token, and OAuth state abuse. What only one network does (X's chunked
 * GIFs, Mastodon's instance limits, LinkedIn's little text, Threads' containers) is tested in
 * that network's file in test/integration/adapters/, against the same world.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeraldError } from '../../server/core/errors.js';
import { partsFromTexts } from '../../server/domain/publishing/plan.js';
import type { PostRef } from '../../server/platforms/adapter.js';
import { PlatformError } from '../../server/platforms/errors.js';
import { authorizeAtNetwork, connectOAuth, finishCallback } from '../helpers/oauth-connect.js';
import { fedblog } from './adapters/fedblog.js';
import { microblog } from './adapters/microblog.js';
import { problog } from './adapters/problog.js';
import { threadblog } from './adapters/threadblog.js';
import { keptOf, startWorld, type Network, type World } from './adapters/world.js';

const NETWORKS: Network[] = [microblog, fedblog, threadblog, problog];

describe.each(NETWORKS.map((net) => [net.name, net] as const))('the %s adapter', (_name, net) => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld(net);
  });
  afterAll(async () => {
    await w?.close();
  });

  it('connects over OAuth into the default social set', async () => {
    const result = await connectOAuth(w.t, w.key, net.platform, net.authBody?.(w.sim));
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body).toMatchObject({
      success: true,
      accountUuid: expect.any(String),
      socialSetId: expect.any(String),
    });
    w.accountId = result.body.accountUuid;
    const list = await w.t.call('GET', '/accounts', { key: w.key });
    const account = list.body.accounts.find((a: any) => a.uuid === w.accountId);
    expect(account).toMatchObject({ platform: net.platform, status: 'active' });
    const sets = await w.t.call('GET', '/social-sets', { key: w.key });
    const def = sets.body.socialSets.find((s: any) => s.isDefault);
    expect(def.name).toBe('Default');
    expect(def.id).toBe(result.body.socialSetId);
    expect(def.accounts.map((a: any) => a.accountId)).toContain(w.accountId);
    await net.connected(w, result);
  });

  it('publishes a single post and answers its public URL', async () => {
    const ref = await w.publish(w.post('Hello from Herald'));
    expect(keptOf(net, w.sim, ref.id)?.text).toBe('Hello from Herald');
    expect(ref.url).toBe(net.urlOf(w, ref));
  });

  it('publishes a 3-part thread the way the network threads', async () => {
    const texts = ['Thread 1/3', 'Thread 2/3', 'Thread 3/3'];
    const refs = await w.thread(partsFromTexts(net.platform, texts).map((p) => w.post(p.text)));
    expect(refs).toHaveLength(3);
    if (net.threads === 'comments') {
      // The first part is the post; the others are comments on it, in order.
      expect(keptOf(net, w.sim, refs[0].id)?.text).toBe(texts[0]);
      const comments = net.comments!(w.sim).slice(-2);
      expect(comments).toEqual([
        { id: refs[1].id, text: texts[1], replyTo: refs[0].id },
        { id: refs[2].id, text: texts[2], replyTo: refs[0].id },
      ]);
      return;
    }
    const kept = refs.map((r) => keptOf(net, w.sim, r.id)!);
    expect(kept.map((k) => k.text)).toEqual(texts);
    expect(kept[0].replyTo ?? null).toBeNull();
    expect(kept[1].replyTo).toBe(refs[0].id);
    expect(kept[2].replyTo).toBe(refs[1].id);
  });

  if (net.threads === 'chain')
    it('resumes a thread after its published parts', async () => {
      const parts = ['Resume 1/3', 'Resume 2/3', 'Resume 3/3'].map((text) => w.post(text));
      const first = await w.publish(parts[0]);
      const before = net.posts(w.sim).length;
      const refs = await w.thread(parts, [first]);
      expect(net.posts(w.sim).length).toBe(before + 2);
      expect(keptOf(net, w.sim, refs[1].id)!.replyTo).toBe(first.id);
    });

  if (net.threads === 'comments')
    it('resumes a thread after its published parts, as comments on the post', async () => {
      const parts = ['Resume 1/3', 'Resume 2/3', 'Resume 3/3'].map((text) => w.post(text));
      const first = await w.publish(parts[0]);
      const [posts, comments] = [net.posts(w.sim).length, net.comments!(w.sim).length];
      const refs = await w.thread(parts, [first]);
      expect(net.posts(w.sim).length).toBe(posts);
      expect(
        net.comments!(w.sim)
          .slice(comments)
          .map((c) => [c.id, c.replyTo]),
      ).toEqual([
        [refs[1].id, first.id],
        [refs[2].id, first.id],
      ]);
    });

  if (net.threads === 'comments')
    it('refuses media on a comment before anything is sent: the post carries the media', async () => {
      const root = await w.publish(w.post('A post with comments'));
      const before = net.comments!(w.sim).length;
      const media = [net.image(w, 0, 'A picture')];
      const err = await w.publish(w.post('a comment', { replyTo: root, root, media })).catch((e) => e);
      expect(err).toBeInstanceOf(PlatformError);
      expect(err.kind).toBe('permanent');
      expect(net.comments!(w.sim).length).toBe(before);
    });

  if (net.threads === 'comments')
    it('treats a comment whose answer was lost as ambiguous, and finds it on the post afterwards', async () => {
      const since = Date.now();
      const root = await w.publish(w.post('A post whose comment answer is lost'));
      net.failDropComment!(w.sim);
      const input = w.post('Did this comment go out?', { replyTo: root, root });
      const err = await w.publish(input).catch((e) => e);
      expect(err).toBeInstanceOf(PlatformError);
      expect(err.kind).toBe('ambiguous');
      const kept = net.comments!(w.sim).at(-1)!;
      expect(kept).toMatchObject({ text: input.text, replyTo: root.id });
      const query = { text: input.text, replyTo: root, since, idempotencyKey: input.idempotencyKey };
      expect((await w.find(query))?.id).toBe(kept.id);
      expect(await w.find({ ...query, text: 'Never commented' })).toBeNull();
    });

  it('attaches two images with their alt text', async () => {
    const media = [net.image(w, 0, 'The first picture'), net.image(w, 1, 'The second picture')];
    const ref = await w.publish(w.post('Two pictures', { media }));
    expect(net.altTexts(w.sim, ref)).toEqual(['The first picture', 'The second picture']);
  });

  it("turns a 429 into rate_limited with the network's reset", async () => {
    const checkReset = net.fail429(w.sim);
    const err = await w.publish(w.post('Rate limited')).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('rate_limited');
    checkReset(err.resetAt);
  });

  it('treats a post whose answer was lost as ambiguous, and finds it afterwards', async () => {
    const since = Date.now();
    net.failDrop(w.sim, net.resendsWithKey ? 2 : 1);
    const before = net.posts(w.sim).length;
    const input = w.post('Did this go out?');
    const err = await w.publish(input).catch((e) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err.kind).toBe('ambiguous');
    expect(net.posts(w.sim).length).toBe(before + 1);
    const found = await w.find({ text: input.text, since, idempotencyKey: input.idempotencyKey });
    expect(found?.id).toBe(net.posts(w.sim).at(-1)?.id);
    expect(keptOf(net, w.sim, found!.id)?.text).toBe('Did this go out?');
    expect(await w.find({ text: 'Never posted', since, idempotencyKey: 'none' })).toBeNull();
  });

  if (net.refresh)
    it('refreshes an expiring token once for 50 racing publishes', async () => {
      const credentials = w.t.server.services.credentials;
      const before = (await credentials.load(w.accountId))!;
      await net.refresh!.expire(w);
      const calls = credentials.refreshCalls;
      const refreshes = net.refresh!.count(w.sim);
      const refs = await Promise.all(Array.from({ length: 50 }, (_, i) => w.publish(w.post(`Racing post ${i}`))));
      expect(new Set(refs.map((r: PostRef) => r.id)).size).toBe(50);
      expect(credentials.refreshCalls - calls).toBe(1);
      expect(net.refresh!.count(w.sim) - refreshes).toBe(1);
      net.refresh!.check?.(before, (await credentials.load(w.accountId))!);
    });

  net.own?.(() => w);

  it('marks the account needs_reauth with TOKEN_EXPIRED when the network refuses its token', async () => {
    net.refuseTokens(w.sim);
    const err = await w.publish(w.post('After revocation')).catch((e) => e);
    expect(err).toBeInstanceOf(HeraldError);
    expect(err.code).toBe('TOKEN_EXPIRED');
    const account = await w.t.call('GET', `/accounts/${w.accountId}`, { key: w.key });
    expect(account.body.account.status).toBe('needs_reauth');
  });

  it('refuses a forged or replayed state before any token call', async () => {
    const start = await w.t.call('POST', `/${net.platform}/auth`, { key: w.key, body: net.authBody?.(w.sim) ?? {} });
    const callback = new URL(await authorizeAtNetwork(start.body.authUrl));
    const tokenCalls = net.tokenCalls(w.sim);

    const forged = new URL(callback);
    forged.searchParams.set('state', Buffer.alloc(40, 7).toString('base64url'));
    const bad = await finishCallback(forged.toString());
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('INVALID_INPUT');
    expect(net.tokenCalls(w.sim)).toBe(tokenCalls);

    const ok = await finishCallback(callback.toString());
    expect(ok.status).toBe(200);
    expect(net.tokenCalls(w.sim)).toBe(tokenCalls + 1);
    const replay = await finishCallback(callback.toString());
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('INVALID_INPUT');
    expect(net.tokenCalls(w.sim)).toBe(tokenCalls + 1);
  });
});
