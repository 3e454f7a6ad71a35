// Instance metadata for the Mastodon simulator: GET /api/v2/instance and the v1 fallback.
import type { Router } from './common.js';

export interface InstanceInfo {
  base(): string;
  maxChars: number;
  domain?: string;
  accountCount(): number;
}

export function registerMastodonInstance(router: Router, info: InstanceInfo): void {
  const { maxChars, domain } = info;
  const configuration = () => ({
    urls: { streaming: info.base().replace(/^http/, 'ws') },
    accounts: { max_featured_tags: 10, max_pinned_statuses: 5 },
    statuses: { max_characters: maxChars, max_media_attachments: 4, characters_reserved_per_url: 23 },
    media_attachments: {
      supported_mime_types: [
        'image/jpeg',
        'image/png',
        'image/gif',
        'image/webp',
        'video/mp4',
        'video/webm',
        'audio/mpeg',
      ],
      image_size_limit: 16_777_216,
      image_matrix_limit: 33_177_600,
      video_size_limit: 103_809_024,
      video_frame_rate_limit: 120,
      video_matrix_limit: 8_294_400,
      description_limit: 1500,
    },
    polls: { max_options: 4, max_characters_per_option: 50, min_expiration: 300, max_expiration: 2_629_746 },
    translation: { enabled: false },
  });
  router.on('GET', '/api/v2/instance', () => ({
    status: 200,
    body: {
      domain: domain ?? '127.0.0.1',
      title: 'Herald simulator',
      version: '4.5.0',
      source_url: 'https://github.com/mastodon/mastodon',
      description: 'Loopback Mastodon simulator',
      usage: { users: { active_month: info.accountCount() } },
      thumbnail: { url: `${info.base()}/thumb.png` },
      languages: ['en'],
      configuration: configuration(),
      registrations: { enabled: false, approval_required: false, message: null },
      api_versions: { mastodon: 7 },
      contact: { email: '', account: null },
      rules: [],
    },
  }));
  router.on('GET', '/api/v1/instance', () => ({
    status: 200,
    body: {
      uri: domain ?? '127.0.0.1',
      title: 'Herald simulator',
      version: '4.3.0',
      configuration: configuration(),
      max_toot_chars: maxChars,
    },
  }));
}
