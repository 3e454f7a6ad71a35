/**
 * All five networks for publishing tests: the X, Mastodon, Threads and LinkedIn simulators and
 * (optionally) a real Bluesky PDS behind a fault proxy, the HERALD_* settings that point Herald
 * at them, accounts connected through Herald's own HTTP flows, and what each network holds, read
 * back from the simulator's state or the PDS's repo (never from Herald).
 */
import { startAppView, type AppView } from '../peers/appview.js';
import type { Platform } from '../../server/core/config.js';
import { createProblogAdapter } from '../../server/platforms/problog.adapter.js';
import { createThreadblogAdapter } from '../../server/platforms/threadblog.adapter.js';
import { startPds, type PdsAccount, type PdsPeer } from '../peers/pds.js';
import { startLinkedInSimulator, type LinkedInSimulator } from '../simulators/linkedin.simulator.js';
import { applyLittleText } from '../simulators/linkedin.text.js';
import { startMastodonSimulator, type MastodonSimulator } from '../simulators/mastodon.simulator.js';
import { startThreadsSimulator, type ThreadsSimulator } from '../simulators/threads.simulator.js';
import { startXSimulator, xSimulatorSettings, type XSimulator } from '../simulators/x.simulator.js';
import { connectOAuth } from './oauth-connect.js';
import type { TestServer } from './server.js';

export const PLATFORMS: Platform[] = ['microblog', 'skyblog', 'fedblog', 'threadblog', 'problog'];

export interface Networks {
  x: XSimulator;
  masto: MastodonSimulator;
  threads: ThreadsSimulator;
  li: LinkedInSimulator;
  pds?: PdsPeer;
  /** The AppView the PDS proxies Bluesky reads (getPosts) to (with `pds`). */
  appView?: AppView;
  /** The PDS account Herald connects (with `pds`). */
  sky?: PdsAccount;
  /** HERALD_* settings pointing Herald at the simulators. */
  settings: Record<string, string>;
  close(): Promise<void>;
}

/** A post as the network holds it: its id, text, the id it replies to, in creation order. */
export interface HeldPost {
  id: string;
  text: string;
  parent?: string;
  media: { bytes: number; alt?: string; type?: string }[];
}

const X_CLIENT = { clientId: 'herald-publish-client', clientSecret: 'herald-publish-secret' };

/**
 * The HERALD_* settings that point Herald at the X, Threads and LinkedIn simulators (Mastodon needs none: its instance
 * is named when connecting).
 */
export function simulatorSettings(
  x: XSimulator,
  threads: ThreadsSimulator,
  li: LinkedInSimulator,
  xClient: { clientId: string; clientSecret: string },
): Record<string, string> {
  return {
    ...xSimulatorSettings(x, xClient),
    HERALD_THREADBLOG_API_URL: threads.url,
    HERALD_THREADBLOG_AUTHORIZE_URL: threads.authorizeUrl,
    HERALD_THREADBLOG_TOKEN_URL: threads.tokenUrl,
    HERALD_THREADBLOG_CLIENT_ID: threads.clientId,
    HERALD_THREADBLOG_CLIENT_SECRET: threads.clientSecret,
    HERALD_PROBLOG_API_URL: li.url,
    HERALD_PROBLOG_AUTHORIZE_URL: li.authorizeUrl,
    HERALD_PROBLOG_TOKEN_URL: li.tokenUrl,
    HERALD_PROBLOG_CLIENT_ID: li.clientId,
    HERALD_PROBLOG_CLIENT_SECRET: li.clientSecret,
  };
}

/**
 * `containerReadyMs`: how long Threads takes to ready a container (0: at once, for a Herald in another process that
 * polls at production pace). `xTweetLimit`: X's posts per user per 15-minute window (default X's 100; a test that moves
 * Herald's clock past a reset the simulator's real clock has not reached raises it).
 */
export async function startNetworks(
  opts: { pds?: boolean; containerReadyMs?: number; xTweetLimit?: number } = {},
): Promise<Networks> {
  // Duplicate refusals off: a post sent twice must show up as two posts, not hide behind a 403.
  const [x, masto, threads, li] = await Promise.all([
    startXSimulator({ ...X_CLIENT, rejectDuplicates: false, checkAfterSecs: 0, tweetLimit: opts.xTweetLimit }),
    startMastodonSimulator(),
    startThreadsSimulator({ containerReadyMs: opts.containerReadyMs ?? 30 }),
    startLinkedInSimulator({ programmaticRefresh: true, rejectDuplicates: false }),
  ]);
  let pds: PdsPeer | undefined;
  let sky: PdsAccount | undefined;
  let appView: AppView | undefined;
  if (opts.pds) {
    appView = await startAppView();
    pds = await startPds({ faultProxy: true, appView });
    sky = await pds.createAccount('herald');
  }
  const settings = simulatorSettings(x, threads, li, X_CLIENT);

  return {
    x,
    masto,
    threads,
    li,
    pds,
    sky,
    appView,
    settings,
    close: async () => {
      await Promise.all([x.close(), masto.close(), threads.close(), li.close()]);
      await pds?.close();
      await appView?.close();
    },
  };
}

/**
 * Threads and LinkedIn poll for readiness every few seconds in production; tests keep the same
 * adapters with short waits, in the test server's own registry.
 */
export function useFastPolling(t: Pick<TestServer, 'server'>): void {
  t.server.deps.platforms.register(createThreadblogAdapter({ pollIntervalMs: 15, retryDelayMs: 15 }));
  t.server.deps.platforms.register(createProblogAdapter({ pollIntervalMs: 10 }));
}

/** Connects one account per network through Herald's HTTP API; returns the account ids. */
export async function connectAll(
  t: Pick<TestServer, 'call'>,
  key: string,
  nets: Networks,
): Promise<Partial<Record<Platform, string>>> {
  const ids: Partial<Record<Platform, string>> = {};
  const oauth = async (platform: Platform, body: Record<string, unknown> = {}) => {
    const r = await connectOAuth(t, key, platform, body);
    if (r.status !== 200) throw new Error(`connecting ${platform} answered ${r.status}: ${JSON.stringify(r.body)}`);
    ids[platform] = r.body.accountUuid as string;
  };
  await oauth('microblog');
  await oauth('fedblog', { instanceUrl: nets.masto.url });
  await oauth('threadblog');
  await oauth('problog');
  if (nets.pds && nets.sky) {
    const r = await t.call('POST', '/skyblog/auth', {
      key,
      body: { identifier: nets.sky.handle, appPassword: nets.sky.appPassword, service: nets.pds.url },
    });
    if (r.status !== 200) throw new Error(`connecting Bluesky answered ${r.status}: ${r.text}`);
    ids.skyblog = r.body.account.uuid as string;
  }
  return ids;
}

/** Requests each network has received so far (the PDS counted at its proxy). */
export function requestCounts(nets: Networks): Record<Platform, number> {
  return {
    microblog: nets.x.requests.length,
    fedblog: nets.masto.requests.length,
    threadblog: nets.threads.requests.length,
    problog: nets.li.requests.length,
    skyblog: nets.pds?.proxy?.requests.length ?? 0,
  };
}

/** Every post the connected account holds on one network, oldest first. */
export async function postsOn(nets: Networks, platform: Platform): Promise<HeldPost[]> {
  switch (platform) {
    case 'microblog': {
      const user = nets.x.state.users[0]!;
      return nets.x
        .postsBy(user.username)
        .sort((a, b) => a.seq - b.seq)
        .map((p) => ({
          id: p.id,
          text: p.text,
          parent: p.replyTo,
          media: p.mediaIds.map((id) => {
            const m = nets.x.state.media.get(id);
            return { bytes: m?.bytes?.length ?? 0, alt: m?.altText, type: m?.mediaType };
          }),
        }));
    }
    case 'fedblog': {
      const user = nets.masto.state.accounts[0]!;
      return nets.masto
        .statusesBy(user.username)
        .sort((a, b) => a.seq - b.seq)
        .map((s) => ({
          id: s.id,
          text: s.text,
          parent: s.inReplyToId ?? undefined,
          media: s.mediaIds.map((id) => {
            const m = nets.masto.state.media.get(id);
            return { bytes: m?.bytes.length ?? 0, alt: m?.description ?? undefined, type: m?.mime };
          }),
        }));
    }
    case 'threadblog': {
      const user = nets.threads.state.users[0]!;
      return nets.threads
        .postsBy(user.username)
        .sort((a, b) => a.seq - b.seq)
        .map((p) => ({
          id: p.id,
          text: p.text,
          parent: p.replyToId,
          media: [p.containerId, ...p.children]
            .map((id) => nets.threads.state.containers.get(id))
            .filter((c) => c?.mediaUrl)
            .map((c) => ({ bytes: c!.fetched?.bytes.length ?? 0, alt: c!.altText, type: c!.mediaType })),
        }));
    }
    case 'problog': {
      const member = nets.li.state.members[0]!;
      // A thread's later parts are comments on its post: each held with the post as its parent.
      const comments = nets.li.comments
        .filter((c) => c.actor === `urn:li:person:${member.sub}`)
        .map((c) => ({ id: c.urn, text: c.text, parent: c.object, media: [], at: c.createdAt }));
      const posts = nets.li
        .postsBy(member.name)
        .sort((a, b) => a.seq - b.seq)
        .map((p) => ({
          // What a reader sees: the commentary LinkedIn kept, its escapes removed.
          id: p.urn,
          text: applyLittleText(p.keptCommentary).visible,
          parent: undefined,
          media: p.imageUrns.map((urn) => ({
            bytes: nets.li.state.images.get(urn)?.bytes?.length ?? 0,
            alt: altOfLinkedIn(p.content, urn),
          })),
          at: p.createdAt,
        }));
      return [...posts, ...comments].sort((a, b) => a.at - b.at).map(({ at: _at, ...p }) => p);
    }
    case 'skyblog': {
      if (!nets.pds || !nets.sky) return [];
      const records = await nets.pds.listPosts(nets.sky.did);
      // listRecords answers newest first; record keys (TIDs) sort by creation time.
      return records.reverse().map((r) => ({
        id: r.uri,
        text: r.value.text,
        parent: r.value.reply?.parent?.uri,
        media: (r.value.embed?.images ?? []).map((img: any) => ({
          bytes: img.image?.size ?? 0,
          alt: img.alt,
          type: img.image?.mimeType,
        })),
      }));
    }
  }
}

function altOfLinkedIn(content: Record<string, any> | undefined, urn: string): string | undefined {
  if (!content) return undefined;
  if (content.media?.id === urn) return content.media.altText;
  return (content.multiImage?.images as { id: string; altText?: string }[] | undefined)?.find((i) => i.id === urn)
    ?.altText;
}

/** The posts whose text is one of `texts`, checked to be one reply chain in that order. */
export function threadOf(posts: HeldPost[], texts: string[]): HeldPost[] {
  return texts.map((text) => {
    const found = posts.filter((p) => p.text === text);
    if (found.length !== 1) throw new Error(`expected one post "${text}", found ${found.length}`);
    return found[0];
  });
}
