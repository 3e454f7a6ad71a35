/**
 * Reads a link card from the head of an HTML page: Open Graph first, then Twitter-card tags,
 * then the page's own <title> and <meta name="description">. Fed chunk by chunk; it says when it
 * has seen the end of the head, so the caller can stop downloading. Relative image URLs are
 * resolved against <base href> or the page's address; only http(s) images are kept.
 */
import { Parser } from '../../core/html-parser.js';

export interface LinkCard {
  url: string;
  title: string;
  description: string;
  imageUrl: string | null;
  siteName: string | null;
}

const TITLE_MAX = 300;
const DESCRIPTION_MAX = 1000;

/** Meta keys in order of preference, per field. */
const KEYS = {
  title: ['og:title', 'twitter:title'],
  description: ['og:description', 'twitter:description', 'description'],
  image: ['og:image:secure_url', 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src'],
  siteName: ['og:site_name', 'application-name'],
} as const;

const clean = (s: string, max: number) => {
  const text = s.replace(/\s+/g, ' ').trim();
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text;
};

export class CardParser {
  private readonly meta = new Map<string, string>();
  private title = '';
  private inTitle = false;
  private base: string;
  /** True once the head is over (</head> or <body>): nothing after it is read. */
  done = false;
  private readonly parser: InstanceType<typeof Parser>;

  /** `cardUrl`: the link as the post has it; `pageUrl`: where the page was read (after redirects). */
  constructor(
    private readonly cardUrl: string,
    private readonly pageUrl: string = cardUrl,
  ) {
    this.base = pageUrl;
    this.parser = new Parser(
      {
        onopentag: (name, attrs) => {
          if (this.done) return;
          if (name === 'body') {
            this.done = true;
            return;
          }
          if (name === 'title') this.inTitle = true;
          if (name === 'base' && attrs.href) {
            try {
              this.base = new URL(attrs.href, this.pageUrl).href;
            } catch {
              /* a broken base changes nothing */
            }
          }
          if (name === 'meta') {
            const key = (attrs.property ?? attrs.name ?? '').trim().toLowerCase();
            const value = attrs.content;
            if (key && typeof value === 'string' && !this.meta.has(key)) this.meta.set(key, value);
          }
        },
        ontext: (text) => {
          if (this.inTitle && !this.done) this.title += text;
        },
        onclosetag: (name) => {
          if (name === 'title') this.inTitle = false;
          if (name === 'head') this.done = true;
        },
      },
      { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
    );
  }

  write(chunk: string): void {
    if (!this.done) this.parser.write(chunk);
  }

  private first(keys: readonly string[]): string | undefined {
    for (const k of keys) {
      const v = this.meta.get(k)?.trim();
      if (v) return v;
    }
    return undefined;
  }

  /** The card read so far, or null when the page names no title, description or image. */
  card(): LinkCard | null {
    this.parser.end();
    const title = clean(this.first(KEYS.title) ?? this.title, TITLE_MAX);
    const description = clean(this.first(KEYS.description) ?? '', DESCRIPTION_MAX);
    let imageUrl: string | null = null;
    const image = this.first(KEYS.image);
    if (image) {
      try {
        const u = new URL(image, this.base);
        if (u.protocol === 'https:' || u.protocol === 'http:') imageUrl = u.href;
      } catch {
        /* an image address that does not parse is no image */
      }
    }
    const siteName = this.first(KEYS.siteName);
    if (!title && !description && !imageUrl) return null;
    return { url: this.cardUrl, title, description, imageUrl, siteName: siteName ? clean(siteName, 100) : null };
  }
}
