/**
 * Runs one publication: sends its parts in order as a reply chain, resuming after the parts
 * already sent. A part left `sending` (a crash, or a network that took the post and dropped the
 * connection) is never re-sent blindly: networks with idempotent writes (Mastodon's
 * Idempotency-Key) get the same request again; the others are asked whether the post exists
 * (`findRecentPost`), and when they cannot say, the publication waits for the user as
 * `needs_review`.
 */
import path from 'node:path';
import type { Platform } from '../../core/config.js';
import type { Deps } from '../deps.js';
import { crashPoint } from '../../core/crash.js';
import { isStorageFull } from '../../core/errors.js';
import type { CallContext, MediaItem, PlatformAdapter, PostLinkCard, PostRef } from '../../platforms/adapter.js';
import { NETWORK_NAMES, PlatformError } from '../../platforms/errors.js';
import { publishThread } from '../../platforms/thread.js';
import type { CredentialsService } from '../accounts/credentials.service.js';
import { parseCaptions } from '../media/captions.js';
import { processingListener } from './processing-waits.js';
import type { OutboxRepo, PartRow, PublicationRow } from '../../db/repos/outbox.repo.js';
import type { PublishInputsRepo } from '../../db/repos/publish-inputs.repo.js';
import type { UsageRepo } from '../../db/repos/usage.repo.js';
import { xPartCostUsd } from './x-spend.js';
import { confirmingAdapter } from './hand-off-confirm.js';
import type { CardSource, MediaRef, PublicationOptions, RelaySource } from './model.js';

export type TargetOutcome =
  | { status: 'published'; refs: PostRef[] }
  | { status: 'failed'; error: unknown }
  | { status: 'needs_review'; reason: string };

/** Thrown when a network cannot tell whether a post was made. */
export class NeedsReview extends Error {}

const RECONCILE_WINDOW_MS = 60 * 60_000;
/** Pauses before each renewed lookup of a post the network says it has but does not list yet. */
const LAGGING_LOOKUPS_MS = [1_000, 2_000, 4_000, 8_000];

export class PublicationRunner {
  constructor(
    private readonly deps: Deps,
    private readonly outbox: OutboxRepo,
    private readonly inputs: PublishInputsRepo,
    private readonly credentials: CredentialsService,
    private readonly usage: UsageRepo,
    sources: { cards?: CardSource; relay?: RelaySource } = {},
  ) {
    this.cards = sources.cards;
    this.relay = sources.relay;
  }

  private readonly cards?: CardSource;
  private readonly relay?: RelaySource;

  /** The planned card, built now, for networks that take one from the client; never fails a post. */
  private async cardFor(adapter: PlatformAdapter, options: PublicationOptions): Promise<PostLinkCard | null> {
    if (!adapter.linkCards || !options.linkCard || !this.cards) return null;
    return this.cards.forPublish(options.linkCard.url).catch(() => null);
  }

  /**
   * Marks a part sent, with the request's usage row in the same transaction: what the quota gate
   * counts, and on X what it cost at the prices in force now (the one price function), alt texts
   * included.
   */
  private sent(pub: PublicationRow, part: PartRow, ref: PostRef): void {
    const cost =
      pub.platform === 'microblog'
        ? xPartCostUsd({ text: part.text, media: this.altTexts(pub.userId, part) }, this.deps.config.x)
        : 0;
    this.outbox.partSent(part.id, ref, () =>
      this.usage.record({
        userId: pub.userId,
        accountId: pub.accountId,
        platform: pub.platform,
        partId: part.id,
        kind: part.position === 0 ? 'post' : 'reply',
        costUsd: cost,
        at: this.deps.clock.now(),
      }),
    );
  }

  /** The alt text each media item of a part went with (the post's, else the media row's). */
  private altTexts(userId: string, part: PartRow): { altText?: string | null }[] {
    return (JSON.parse(part.media) as MediaRef[]).map((ref) => {
      if (ref.altText !== undefined || !ref.mediaId) return { altText: ref.altText };
      const row = this.inputs.mediaRow(ref.mediaId);
      return { altText: row?.userId === userId ? row.altText : null };
    });
  }

  /** Media rows (this user's) as adapter input, alt text from the post taking precedence. */
  resolveMedia(userId: string, refs: MediaRef[], publicBase?: string): MediaItem[] {
    return refs.map((ref) => {
      if (!ref.mediaId && ref.url) {
        const video = /\.(mp4|mov)(\?|$)/i.test(ref.url);
        return {
          path: '',
          mime: video ? 'video/mp4' : 'image/jpeg',
          size: 0,
          kind: video ? 'video' : 'image',
          altText: ref.altText ?? '',
          publicUrl: ref.url,
        };
      }
      const row = this.inputs.mediaRow(ref.mediaId ?? '');
      if (!row || row.userId !== userId)
        throw new PlatformError('microblog', 'permanent', `Media ${ref.mediaId} no longer exists`);
      return {
        path: path.join(this.deps.config.dataDir, 'media', row.fileName),
        mime: row.mime,
        size: row.size,
        kind: row.type as MediaItem['kind'],
        width: row.width ?? undefined,
        height: row.height ?? undefined,
        altText: ref.altText ?? row.altText,
        title: row.title,
        captions: parseCaptions(row.captions),
        publicUrl: publicBase ? `${publicBase}/api/v1/media/${row.id}` : undefined,
      };
    });
  }

  async run(pub: PublicationRow): Promise<TargetOutcome> {
    const platform = pub.platform as Platform;
    const account = this.inputs.account(pub.accountId);
    if (!account || account.userId !== pub.userId) {
      return {
        status: 'failed',
        error: new PlatformError(
          platform,
          'permanent',
          `The ${NETWORK_NAMES[platform]} account was removed from Herald`,
        ),
      };
    }
    let adapter: PlatformAdapter;
    try {
      adapter = this.deps.platforms.get(platform);
    } catch (err) {
      return { status: 'failed', error: err };
    }
    const options = JSON.parse(pub.options) as PublicationOptions;
    if (options.handedOff) adapter = confirmingAdapter(adapter, options.handedOff);
    const since = Date.parse(pub.createdAt) - RECONCILE_WINDOW_MS;
    try {
      const parts = this.outbox.parts(pub.id);
      const card = await this.cardFor(adapter, options);
      const plans = parts.map((p) => {
        const media = this.resolveMedia(pub.userId, JSON.parse(p.media) as MediaRef[]);
        // Images win over a card (docs/decisions.md §16).
        const linkCard = card && p.position === options.linkCard?.position && media.length === 0 ? card : undefined;
        return {
          text: p.text,
          media,
          quote: p.position === 0 ? options.quote : undefined,
          options,
          idempotencyKey: p.idempotencyKey,
          ...(linkCard ? { linkCard } : {}),
        };
      });
      const mediaRelay = this.relay?.relay();
      const onProcessing = processingListener(pub.id);
      const refs = await this.credentials.withCredentials(account, (ctx) =>
        this.sendAll(adapter, { ...ctx, onProcessing, ...(mediaRelay ? { mediaRelay } : {}) }, pub, plans, since),
      );
      return { status: 'published', refs };
    } catch (err) {
      if (err instanceof NeedsReview) return { status: 'needs_review', reason: err.message };
      return { status: 'failed', error: err };
    }
  }

  private async sendAll(
    adapter: PlatformAdapter,
    ctx: CallContext,
    pub: PublicationRow,
    plans: Parameters<typeof publishThread>[2],
    since: number,
  ): Promise<PostRef[]> {
    // Parts whose answer was lost in this run: the network may hold them.
    const unsure = new Set<string>();
    for (let round = 0; round < 3; round++) {
      const parts = this.outbox.parts(pub.id);
      // Parts the network may hold from an earlier attempt; settledPrefix asks it about them.
      const wasSending = new Set(parts.filter((p) => p.status === 'sending').map((p) => p.id));
      const prefix = await this.settledPrefix(adapter, ctx, pub, parts, plans, since);
      try {
        return await publishThread(adapter, ctx, plans, prefix, {
          beforeSend: (i) => this.outbox.partSending(parts[i].id),
          afterSend: (i, ref) => {
            this.sent(pub, parts[i], ref);
            if (i < plans.length - 1) crashPoint('mid-thread'); // crash harness: between the posts of a thread
          },
        });
      } catch (err) {
        const sending = this.outbox.parts(pub.id).find((p) => p.status === 'sending');
        // A network deduping by key that let its write time out was already sent the part twice
        // with that key (the adapter's own repeat): more rounds here only kept the post
        // "publishing" for minutes (2 calls of a minute each per round). The attempt ends,
        // retryable, with the part still `sending`, so the next one settles it with the same key.
        if (
          err instanceof PlatformError &&
          err.kind === 'ambiguous' &&
          adapter.idempotentWrites &&
          err.opts.code === 'timeout' &&
          sending
        ) {
          throw new PlatformError(err.platform, 'transient', err.message, { code: 'unconfirmed', cause: err });
        }
        // The next round settles an ambiguous part by asking the network.
        if (err instanceof PlatformError && err.kind === 'ambiguous') {
          if (sending) unsure.add(sending.id);
          continue;
        }
        // A server error answering the write may come from a gateway after the network took the
        // post (Mastodon behind a proxy answering 502/504). The attempt ends and is retried
        // later, but the part stays `sending`: the retry settles it first, with the same
        // Idempotency-Key or by looking the post up, and never sends a second copy blindly.
        if (err instanceof PlatformError && err.kind === 'transient' && (err.status ?? 0) >= 500 && sending) throw err;
        // The network said it did not have the part, took it again, and now refuses it as a
        // duplicate: its timeline lagged the first copy (X's does). Asked again a little later it
        // shows the post, which is then the part's.
        if (err instanceof PlatformError && err.opts.code === 'duplicate' && sending && wasSending.has(sending.id)) {
          const found = await this.findOnceVisible(adapter, ctx, {
            text: plans[sending.position].text,
            replyTo: prefix.at(-1),
            since,
            idempotencyKey: sending.idempotencyKey,
          });
          if (found) {
            this.sent(pub, sending, found);
            continue;
          }
          throw new NeedsReview(
            `${NETWORK_NAMES[adapter.platform]} says post ${sending.position + 1} is already published, but ` +
              `Herald cannot find it on the account; look at the account, then confirm or retry`,
          );
        }
        // A local write failed (a full disk), not the network: whether a `sending` part went out
        // is unknown, so it stays `sending` and the next run asks the network, never resends blindly.
        if (isStorageFull(err)) throw err;
        // Anything else was refused before the network took the post: that part may go again,
        // unless an earlier attempt's answer was lost and nothing has settled it since (a
        // network deduping by key was sent it again, not asked): it stays `sending`, so the
        // next run settles it the same way, with the same Idempotency-Key.
        if (sending && !(adapter.idempotentWrites && unsure.has(sending.id))) this.outbox.partPending(sending.id);
        throw err;
      }
    }
    throw new NeedsReview(
      `${NETWORK_NAMES[pub.platform as Platform]} kept failing after taking a post; check the account and ` +
        `confirm before retrying`,
    );
  }

  /** Asks the network for a post it says it has, while its timeline catches up (about 15 s). */
  private async findOnceVisible(
    adapter: PlatformAdapter,
    ctx: CallContext,
    query: Parameters<PlatformAdapter['findRecentPost']>[1],
  ): Promise<PostRef | null> {
    for (const wait of LAGGING_LOOKUPS_MS) {
      await new Promise((r) => setTimeout(r, wait));
      const found = await adapter.findRecentPost(ctx, query).catch((err: unknown) => {
        if (err instanceof PlatformError && err.kind === 'token_expired') throw err;
        return null;
      });
      if (found) return found;
    }
    return null;
  }

  /** Sent parts, plus a `sending` part once the network confirms it exists. */
  private async settledPrefix(
    adapter: PlatformAdapter,
    ctx: CallContext,
    pub: PublicationRow,
    parts: PartRow[],
    plans: { text: string; idempotencyKey: string }[],
    since: number,
  ): Promise<PostRef[]> {
    const prefix: PostRef[] = [];
    for (const part of parts) {
      if (part.status === 'sent') {
        prefix.push({ id: part.networkId!, cid: part.networkCid ?? undefined, url: part.url ?? '' });
        continue;
      }
      if (part.status !== 'sending') break;
      if (adapter.idempotentWrites) break; // the same request again is safe: the network dedupes it
      let found: PostRef | null;
      try {
        found = await adapter.findRecentPost(ctx, {
          text: plans[part.position].text,
          replyTo: prefix.at(-1),
          since,
          idempotencyKey: part.idempotencyKey,
        });
      } catch (err) {
        // An expired token is renewed by withCredentials, which then asks again.
        if (err instanceof PlatformError && err.kind === 'token_expired') throw err;
        const name = NETWORK_NAMES[adapter.platform];
        throw new NeedsReview(
          `${name} may have published post ${part.position + 1} without confirming it, and Herald could not ` +
            `check (${(err as Error).message}); look at the account, then confirm or retry`,
        );
      }
      if (!found) break; // the network says it is not there: sending it is not a duplicate
      this.sent(pub, part, found);
      prefix.push(found);
    }
    return prefix;
  }
}
