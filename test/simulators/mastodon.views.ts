// Entity views (Account, MediaAttachment, Status) for the Mastodon simulator.
import { engagementOf } from './engagement.js';
import type { MastodonAccount, MastodonMedia, MastodonState, MastodonStatus } from './mastodon.simulator.js';

export function mastodonViews(base: () => string, state: MastodonState) {
  const accountView = (a: MastodonAccount) => ({
    id: a.id,
    username: a.username,
    acct: a.username,
    display_name: a.displayName,
    locked: false,
    bot: false,
    url: `${base()}/@${a.username}`,
    avatar: `${base()}/avatars/original/missing.png`,
    avatar_static: `${base()}/avatars/original/missing.png`,
    header: `${base()}/headers/original/missing.png`,
    note: '',
    followers_count: a.followers,
    following_count: a.following,
    statuses_count: state.statuses.filter((s) => s.accountId === a.id).length,
    created_at: '2024-01-01T00:00:00.000Z',
    emojis: [],
    fields: [],
  });
  const mediaView = (m: MastodonMedia) => {
    const ready = m.pollsLeft <= 0 && !m.failed;
    return {
      id: m.id,
      type: m.type,
      url: ready ? `${base()}/system/media_attachments/${m.id}` : null,
      preview_url: `${base()}/system/media_attachments/${m.id}`,
      remote_url: null,
      text_url: null,
      meta: m.type === 'image' ? { original: { width: 1, height: 1, size: '1x1', aspect: 1 } } : {},
      description: m.description,
      blurhash: null,
    };
  };
  const escapeHtml = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const statusView = (s: MastodonStatus) => {
    const acct = state.accounts.find((a) => a.id === s.accountId)!;
    const inReplyTo = s.inReplyToId ? state.statuses.find((x) => x.id === s.inReplyToId) : undefined;
    return {
      id: s.id,
      created_at: s.createdAt,
      in_reply_to_id: s.inReplyToId,
      in_reply_to_account_id: inReplyTo ? inReplyTo.accountId : null,
      sensitive: s.sensitive,
      spoiler_text: s.spoilerText,
      visibility: s.visibility,
      language: s.language,
      uri: `${base()}/users/${acct.username}/statuses/${s.id}`,
      url: `${base()}/@${acct.username}/${s.id}`,
      replies_count: engagementOf(s).replies,
      reblogs_count: engagementOf(s).reposts,
      favourites_count: engagementOf(s).likes,
      quotes_count: engagementOf(s).quotes,
      edited_at: (s as { editedAt?: string }).editedAt ?? null,
      content: s.text ? `<p>${escapeHtml(s.text).replace(/\n/g, '<br />')}</p>` : '',
      reblog: null,
      account: accountView(acct),
      media_attachments: s.mediaIds.map((id) => mediaView(state.media.get(id)!)),
      mentions: [],
      tags: [],
      emojis: [],
      card: null,
      poll: null,
    };
  };
  return { accountView, mediaView, statusView };
}
