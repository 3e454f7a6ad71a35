/**
 * Counting (issue #19 item 1, docs/decisions.md §20.3): the time to count one post for all five
 * networks, with the function the server calls on every draft write and read (checkTweet: each
 * network's verdict plus the grapheme count; the composer calls validatePost for each network,
 * the same work), on 1k/10k/100k characters of each shape in test/helpers/hard-text.ts.
 * Medians of RUNS samples with min–max; each sample counts the text enough times to last a few
 * milliseconds (per-call figure shown). Shapes and sizes are interleaved within a run, so load
 * on the machine hits each alike; ratios are to plain prose of the same length in the same run.
 * Goals: 100k characters of any shape ≤ 20 ms; 10× the text ≤ 12× the time.
 */
import { PLATFORMS } from '../text/index.js';
import { checkTweet, type TargetRules } from '../server/domain/drafts/draft-text.js';
import { LONG_SHAPES, longText } from '../test/helpers/hard-text.js';
import { finishGoals, fmt, goal, loadNote, printTable, stats } from './lib.js';

const RUNS = Math.max(5, Number(process.env.BENCH_RUNS ?? 9));
const SIZES = [1_000, 10_000, 100_000];
const GOAL_MS = 20;
const GOAL_GROWTH = 12;
const rules: TargetRules = new Map(PLATFORMS.map((p) => [p, [{}]]));
const shapes = Object.keys(LONG_SHAPES);
const texts = new Map(shapes.flatMap((s) => SIZES.map((n) => [`${s}/${n}`, longText(s, n)] as const)));

/** ms per call of counting `text` for all networks, over enough calls (10 at 100k) to last milliseconds. */
function sample(text: string): number {
  const reps = Math.max(1, Math.round(1_000_000 / text.length));
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) checkTweet(text, [], rules);
  return Number(process.hrtime.bigint() - t0) / 1e6 / reps;
}

// Warm-up: every text once (JIT, ICU data), then RUNS interleaved rounds.
for (const t of texts.values()) sample(t);
const samples = new Map([...texts.keys()].map((k) => [k, [] as number[]]));
for (let r = 0; r < RUNS; r++) for (const [k, t] of texts) samples.get(k)!.push(sample(t));

const med = (shape: string, n: number) => stats(samples.get(`${shape}/${n}`)!).median;
const growth = (shape: string, a: number, b: number) => {
  const small = samples.get(`${shape}/${a}`)!;
  return stats(samples.get(`${shape}/${b}`)!.map((t, i) => t / small[i])).median;
};
const rows: string[][] = [
  [
    'shape',
    ...SIZES.map((n) => `${n / 1000}k ms, median (min–max)`),
    'vs plain at 100k',
    '10× growth (10k/1k, 100k/10k), median of rounds',
    'goal ≤ 20 ms at 100k',
    'goal 10× ≤ 12×',
  ],
];
let failures = 0;
for (const s of shapes) {
  const cells = SIZES.map((n) => {
    const st = stats(samples.get(`${s}/${n}`)!);
    return `${fmt(st.median, 3)} (${fmt(st.min, 3)}–${fmt(st.max, 3)})`;
  });
  // Growth as the median of each round's own ratio: the two sizes are measured moments apart,
  // under the same load, so a burst of other work on the machine does not skew it.
  const g1 = growth(s, 1_000, 10_000);
  const g2 = growth(s, 10_000, 100_000);
  const fast = med(s, 100_000) <= GOAL_MS;
  const linear = Math.max(g1, g2) <= GOAL_GROWTH;
  if (!fast || !linear) failures++;
  const fastCell =
    `${fmt(med(s, 100_000), 3)} ms` +
    `${goal(`${s}: 100k in ${fmt(med(s, 100_000), 3)} ms (goal ≤ ${GOAL_MS} ms)`, fast)}`;
  const linearCell =
    `${fmt(Math.max(g1, g2))}×` +
    `${goal(`${s}: 10× text took ${fmt(Math.max(g1, g2))}× the time (goal ≤ ${GOAL_GROWTH}×)`, linear)}`;
  rows.push([
    s,
    ...cells,
    `${fmt(med(s, 100_000) / med('plain', 100_000))}×`,
    `${fmt(g1)}×, ${fmt(g2)}×`,
    fastCell,
    linearCell,
  ]);
}
printTable(`Counting one post for all 5 networks (checkTweet), ${RUNS} runs`, rows);
console.log(
  `ratios to plain at 1k/10k: ` +
    shapes
      .map((s) => `${s} ${fmt(med(s, 1_000) / med('plain', 1_000))}×/${fmt(med(s, 10_000) / med('plain', 10_000))}×`)
      .join('; '),
);
console.log(
  `goal (docs/decisions.md §20.3): 100k characters of any shape ≤ ${GOAL_MS} ms; 10× the text ≤ ` +
    `${GOAL_GROWTH}× the time`,
);
console.log(`${failures === 0 ? 'every shape meets both' : `${failures} shape(s) miss a goal`}\n${loadNote()}`);
finishGoals();
