/**
 * Publishing memory (issue #35): a large MP4 already uploaded to the compiled Herald server (its own
 * process) is published to LinkedIn (300 MB: 4 MiB parts, each PUT streamed from its slice of the
 * file) and to Bluesky (the largest video Bluesky takes, 100,000,000 bytes less a little: the video
 * service, uploadVideo streamed from disk). The server's resident set size is sampled from /proc
 * every 20 ms while it publishes. Goal: each grows RSS by at most 64 MB (streamed, never held).
 * The LinkedIn simulator, the video-service simulator and the real PDS run in this process.
 */
import { startPds } from '../test/peers/pds.js';
import { upload, zeroTail } from '../test/helpers/media-files.js';
import { timedVideoHeader } from '../test/helpers/media-kinds.js';
import { startBskyVideoSim } from '../test/simulators/bsky-video.simulator.js';
import { connectSimulators, startSimulators } from './networks.js';
import { finishGoals, fmt, goal, printTable, rssBytes, startHerald } from './lib.js';

const MB = 1024 * 1024;
const GOAL_MB = 64;

const sims = await startSimulators();
const pds = await startPds({ blobUploadLimit: 100_000_000 });
const video = await startBskyVideoSim({ pdsUrl: pds.url, pollsUntilDone: 1 });
const h = await startHerald({
  ...sims.settings,
  HERALD_SKYBLOG_VIDEO_URL: video.url,
  HERALD_MEDIA_POLL_SECONDS: '0.2',
});
const rows: string[][] = [['network', 'file', 'seconds', 'RSS before (MB)', 'RSS peak (MB)', 'growth (MB)', 'goal']];
try {
  const ids = await connectSimulators(h, sims);
  const alice = await pds.createAccount('alice');
  const sky = await h.ok('POST', '/skyblog/auth', {
    identifier: alice.handle,
    appPassword: alice.appPassword,
    service: pds.url,
  });

  async function one(network: 'problog' | 'skyblog', accountId: string, total: number) {
    const header = timedVideoHeader(60_000, total - timedVideoHeader(60_000, 0).length);
    const up = await upload(h.base, h.key, [{ filename: `${network}.mp4`, data: zeroTail(header, total) }]);
    if (up.status !== 200) throw new Error(`upload answered ${up.status}: ${up.text}`);
    const mediaId = up.body.data.uploads[0].mediaId as string;
    const draft = await h.ok('POST', '/microblog/drafts', {
      title: `A ${total / MB} MB video`,
      tweets: [{ content: `A ${Math.round(total / MB)} MB video to ${network}`, media: [{ mediaId }] }],
    });
    await new Promise((r) => setTimeout(r, 1000));
    const pid = h.child.pid!;
    const baseline = rssBytes(pid);
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssBytes(pid));
    }, 20);
    const started = Date.now();
    const r = await h.call('POST', '/publish/multi-platform', {
      key: h.key,
      body: { draftId: draft.draft.id, targetAccounts: [{ accountId, platform: network }] },
    });
    const seconds = (Date.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssBytes(pid));
    if (r.status !== 200 || r.body.summary?.succeeded !== 1)
      throw new Error(`publishing to ${network} answered ${r.status}: ${r.text.slice(0, 500)}`);
    const growth = (peak - baseline) / MB;
    rows.push([
      network === 'problog' ? 'LinkedIn' : 'Bluesky',
      `${fmt(total / MB)} MB mp4`,
      fmt(seconds),
      fmt(baseline / MB),
      fmt(peak / MB),
      fmt(growth),
      `≤ ${GOAL_MB} MB${goal(`${network} video publish RSS ≤ ${GOAL_MB} MB`, growth <= GOAL_MB)}`,
    ]);
  }

  await one('problog', ids.problog, 300 * MB);
  await one('skyblog', sky.account.uuid as string, 99_000_000);
  printTable('Publishing a large video (server process RSS)', rows);
  finishGoals();
} finally {
  await h.stop();
  await video.close();
  await pds.close();
  await sims.close();
}
