/**
 * A refused upload is read by its client (issue #33 point 8): Herald refuses five files, a file
 * that is not an image, and a file over its type's cap while the client is still sending; each
 * client must read the 4xx and its reason, never a broken pipe or a reset. Every kind is sent
 * HERALD_REFUSED_UPLOADS times (default 1,000) from fetch (undici, as a user's script sends it)
 * and as many times through the client library's uploadMedia, the code `herald draft import`
 * uploads with; a few real `herald draft import` runs show the reason on the terminal. Accepted
 * uploads go through between the refused ones (on the same kept-alive connections) unaffected,
 * and nothing refused is kept.
 *
 * The over-cap file is the cap + 1 MiB: after refusing, the server reads it to its end (DRAIN_BYTES)
 * and answers on a connection that stays open; what a hostile upload far over the cap can make it
 * read stays bounded, and its connection is closed (test/security/upload.exploit.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HeraldClient, HeraldError } from '../../client/index.js';
import { MEDIA_TYPES } from '../../server/domain/media/media-types.js';
import { cliEnv, herald } from '../helpers/cli.js';
import { endlessHeader, png } from '../helpers/media-files.js';
import { addAccount, userIdOf } from '../helpers/drafts.js';
import { OWNER, startServer, tempDir, type TestServer } from '../helpers/server.js';
import { reportFigure } from './quality.js';

const COUNT = Number(process.env.HERALD_REFUSED_UPLOADS ?? 1000);
/** Uploads in flight at once (a script's parallel uploads; keeps 3 × 2 × COUNT within minutes). */
const PARALLEL = 4;
vi.setConfig({ testTimeout: 1_200_000 });

let t: TestServer;
let key: string;
let client: HeraldClient;
let home: string;

const MiB = 1024 * 1024;
const image = () => png(64, 64, 2048);
const notImage = Buffer.from('<html><body>not an image</body></html>\n'.repeat(5200)); // about 200 kB
// A PNG whose one IDAT chunk runs on past the cap (the shape the byte-cap attacks use).
const overCap = (() => {
  const { header } = endlessHeader('png');
  return Buffer.concat([header, Buffer.alloc(MEDIA_TYPES.png.maxBytes + MiB - header.length)]);
})();

interface Kind {
  name: string;
  status: number;
  reason: RegExp;
  files: () => { name: string; data: Buffer }[];
}
const KINDS: Kind[] = [
  {
    name: 'five files',
    status: 400,
    reason: /At most 4 files/,
    files: () =>
      [1, 2, 3, 4].map((n) => ({ name: `${n}.png`, data: image() })).concat({ name: '5.png', data: notImage }),
  },
  {
    name: 'not an image',
    status: 415,
    reason: /file type is not accepted/,
    files: () => [{ name: 'page.png', data: notImage }],
  },
  {
    name: 'over the cap',
    status: 413,
    reason: /limit|MB|large|over/i,
    files: () => [{ name: 'huge.png', data: overCap }],
  },
];

const mediaFiles = () =>
  fs.existsSync(path.join(t.dataDir, 'media')) ? fs.readdirSync(path.join(t.dataDir, 'media')) : [];

beforeAll(async () => {
  // Six thousand uploads and more from one key: past the default tier's hourly limit.
  t = await startServer({
    scheduler: false,
    settings: { HERALD_DEFAULT_TIER: 'enterprise', HERALD_ENTERPRISE_LIMIT: '1000000' },
  });
  key = await t.login();
  addAccount(t, userIdOf(t, OWNER.email), 'skyblog');
  client = new HeraldClient({ baseUrl: t.base, apiKey: key });
  home = tempDir('herald-refused-uploads-');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(home, { recursive: true, force: true });
});

type Outcome = { status: number; code?: string; message?: string } | { error: string };

async function viaFetch(files: { name: string; data: Buffer }[]): Promise<Outcome> {
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([new Uint8Array(f.data)]), f.name);
  try {
    const r = await fetch(`${t.base}/microblog/media/upload`, {
      method: 'POST',
      headers: { 'svc-key': key },
      body: form,
    });
    const body = (await r.json()) as { error?: string; message?: string };
    return { status: r.status, code: body.error, message: body.message };
  } catch (err) {
    return { error: `${(err as Error).message} ${String((err as { cause?: unknown }).cause ?? '')}` };
  }
}

async function viaClient(files: { name: string; data: Buffer }[]): Promise<Outcome> {
  try {
    await client.uploadMedia(files.map((f) => ({ name: f.name, data: new Blob([new Uint8Array(f.data)]) })));
    return { status: 200 };
  } catch (err) {
    if (err instanceof HeraldError && err.status > 0)
      return { status: err.status, code: err.code, message: err.message };
    return { error: `${(err as Error).message} ${String((err as { cause?: unknown }).cause ?? '')}` };
  }
}

/** Sends `kind` COUNT times, PARALLEL at once, with an accepted upload after every 50th. */
async function hammer(kind: Kind, send: (files: { name: string; data: Buffer }[]) => Promise<Outcome>) {
  const errors: string[] = [];
  const wrong: string[] = [];
  let next = 0;
  let accepted = 0;
  const worker = async () => {
    for (let i = next++; i < COUNT; i = next++) {
      const r = await send(kind.files());
      if ('error' in r) errors.push(r.error);
      else if (r.status !== kind.status || r.code !== 'INVALID_INPUT' || !kind.reason.test(r.message ?? ''))
        wrong.push(JSON.stringify(r));
      if (i % 50 === 49) {
        const ok = await send([{ name: 'ok.png', data: image() }]);
        if (!('status' in ok) || ok.status !== 200) wrong.push(`accepted upload: ${JSON.stringify(ok)}`);
        else accepted += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return { errors, wrong, accepted };
}

describe(`refused uploads are read by their clients (${COUNT} of each kind from each client)`, () => {
  for (const kind of KINDS.filter((k) => !process.env.KIND || k.name === process.env.KIND)) {
    for (const [via, send] of [
      ['fetch', viaFetch],
      ['client library', viaClient],
    ] as const) {
      it(
        `${kind.name} from ${via}: every one reads Herald's ` + `${kind.status} with its reason, 0 connection errors`,
        async () => {
          const started = Date.now();
          const { errors, wrong, accepted } = await hammer(kind, send);
          reportFigure(
            `refused upload (${kind.name}, ${via})`,
            `${COUNT - errors.length - wrong.length}/${COUNT} read the ${kind.status}; connection errors ` +
              `${errors.length} (goal 0)`,
          );
          expect(errors.slice(0, 3), `${errors.length} connection errors`).toEqual([]);
          expect(wrong.slice(0, 3), `${wrong.length} other answers`).toEqual([]);
          expect(accepted).toBe(Math.floor(COUNT / 50));
          // Only the accepted uploads are kept.
          expect(mediaFiles()).toHaveLength(
            t.server.sqlite.prepare('SELECT COUNT(*) FROM media').pluck().get() as number,
          );
          console.log(`${kind.name} via ${via}: ${COUNT} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
        },
      );
    }
  }

  it("`herald draft import` shows Herald's reason for a refused media file", async () => {
    const env = cliEnv(home, { HERALD_API_KEY: key, HERALD_BASE_URL: t.base });
    for (const [file, data, reason] of [
      ['page.png', notImage, /INVALID_INPUT/],
      ['huge.png', overCap, /INVALID_INPUT: .*(limit|MB)/],
    ] as const) {
      fs.writeFileSync(path.join(home, file), data);
      fs.writeFileSync(
        path.join(home, 'post.md'),
        `---\nnetworks: [skyblog]\nmedia:\n  - post: 1\n    path: ${file}\n---\nWith media\n`,
      );
      for (let i = 0; i < 3; i++) {
        const r = await herald(['draft', 'import', path.join(home, 'post.md')], { env });
        expect(r.code, r.err).not.toBe(0);
        expect(r.err).toMatch(reason);
        expect(r.err).not.toMatch(/fetch failed|EPIPE|ECONNRESET|socket/i);
      }
    }
  });
});
