/**
 * A steady stream of acknowledged writes over HTTP, and the check that the database file holds
 * them: template creates (one row each) and, every fourth write, a draft create (a draft and its
 * two posts in one transaction). Used by the durability and backup tests.
 */
import http from 'node:http';
import Database from 'better-sqlite3';

/** One request over a keep-alive agent (lighter than fetch, so the server gets the CPU). */
export function request(
  agent: http.Agent,
  url: string,
  body?: unknown,
  key?: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        agent,
        method: payload === undefined ? 'GET' : 'POST',
        headers: {
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...(key ? { 'svc-key': key } : {}),
        },
      },
      (res) => {
        let text = '';
        res
          .setEncoding('utf8')
          .on('data', (c: string) => {
            text += c;
          })
          .on('end', () => resolve({ status: res.statusCode ?? 0, text }))
          .on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export interface Written {
  kind: 'draft' | 'template';
  id: string;
  /** performance.now() when the 2xx arrived. */
  ackedAt: number;
}

export interface FileContents {
  integrity: string;
  /** Template name → id. */
  templates: Map<string, string>;
  /** Draft title → id and post count. */
  drafts: Map<string, { id: string; posts: number }>;
}

export class WriteLoad {
  /** Marker → what was written, for every write that got a 2xx. */
  readonly acked = new Map<string, Written>();
  /** Markers of writes whose answer never came. */
  readonly unanswered = new Set<string>();
  /** Answers that were neither 2xx nor a lost connection. */
  readonly unexpected: string[] = [];
  /** Writers wait on this before each write (a test holds them while the server is down). */
  gate: Promise<void> = Promise.resolve();
  /** Called after every acknowledgement. */
  onAck: (() => void) | undefined;
  private seq = 0;
  private stopped = false;
  readonly agent: http.Agent;

  constructor(
    private readonly apiUrl: () => string,
    private readonly key: string,
    readonly clients = 8,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  }

  /** Runs the writers until `done()` (checked before each write) or stop(). */
  run(done: () => boolean = () => false): Promise<void> {
    const writer = async () => {
      while (!this.stopped && !done() && this.unexpected.length === 0) {
        await this.gate;
        if (this.stopped) return;
        const base = this.apiUrl();
        const n = ++this.seq;
        const marker = `m${n}`;
        const kind = n % 4 === 0 ? 'draft' : 'template';
        try {
          const res =
            kind === 'draft'
              ? await request(
                  this.agent,
                  `${base}/microblog/drafts`,
                  { title: marker, tweets: [{ content: `${marker} first` }, { content: `${marker} second` }] },
                  this.key,
                )
              : await request(
                  this.agent,
                  `${base}/templates`,
                  { name: marker, tailContentPlain: `— ${marker}` },
                  this.key,
                );
          if (res.status === 200) {
            const body = JSON.parse(res.text) as { draft?: { id: string }; template?: { uuid: string } };
            this.acked.set(marker, { kind, id: body.draft?.id ?? body.template!.uuid, ackedAt: performance.now() });
            this.onAck?.();
          } else {
            this.unexpected.push(`${res.status} ${res.text.slice(0, 200)}`);
          }
        } catch {
          this.unanswered.add(marker);
        }
      }
    };
    return Promise.all(Array.from({ length: this.clients }, writer)).then(() => undefined);
  }

  stop(): void {
    this.stopped = true;
  }

  close(): void {
    this.agent.destroy();
  }

  /** Acknowledged writes (those acknowledged before `before`, if given) the file lacks or holds in part. */
  missing(file: FileContents, before = Infinity): string[] {
    const out: string[] = [];
    for (const [marker, w] of this.acked) {
      if (w.ackedAt >= before) continue;
      const d = file.drafts.get(marker);
      const there = w.kind === 'template' ? file.templates.get(marker) === w.id : d?.id === w.id && d.posts === 2;
      if (!there) out.push(marker);
    }
    return out;
  }
}

/** Reads a database file with a connection of its own (safe beside a running server). */
export function readBack(dbFile: string): FileContents {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const integrity = String(db.pragma('integrity_check', { simple: true }));
    const templates = new Map(
      (db.prepare('SELECT id, name FROM templates').all() as { id: string; name: string }[]).map((r) => [r.name, r.id]),
    );
    const drafts = new Map(
      (
        db
          .prepare(
            `SELECT d.id, d.title, (SELECT COUNT(*) FROM tweets t WHERE t.draft_id = d.id) AS posts FROM drafts d`,
          )
          .all() as { id: string; title: string; posts: number }[]
      ).map((r) => [r.title, { id: r.id, posts: r.posts }]),
    );
    return { integrity, templates, drafts };
  } finally {
    db.close();
  }
}

/** Drafts in the file that exist in part (a torn transaction). */
export const tornDrafts = (file: FileContents, postsEach = 2) =>
  [...file.drafts.entries()].filter(([title, d]) => /^m\d+$/.test(title) && d.posts !== postsEach).length;
