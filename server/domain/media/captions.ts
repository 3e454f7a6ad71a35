/**
 * Captions on a media item: WebVTT files, one per language. Checked when set, so a network never
 * receives one it would refuse: the WEBVTT signature, every cue timing line well formed and in
 * order, at most MAX_CAPTION_BYTES each (Bluesky's cap), at most MAX_CAPTIONS, a BCP 47 tag.
 */
import { HeraldError, type ErrorDetail } from '../../core/errors.js';

export interface Caption {
  lang: string;
  vtt: string;
}

export const MAX_CAPTIONS = 20;
export const MAX_CAPTION_BYTES = 20_000;

const TIME = String.raw`(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})`;
const TIMING = new RegExp(String.raw`^${TIME}[ \t]+-->[ \t]+${TIME}(?:[ \t].*)?$`);

const ms = (h: string | undefined, m: string, s: string, f: string) =>
  ((Number(h ?? 0) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(f);

/** What is wrong with a WebVTT text, or undefined when it is well formed. */
export function vttProblem(vtt: string): string | undefined {
  const text = vtt.replace(/^\uFEFF/, '');
  if (!/^WEBVTT(?:[ \t][^\r\n]*)?(?:\r\n|\r|\n|$)/.test(text)) return 'not WebVTT: it must start with "WEBVTT"';
  const lines = text.split(/\r\n|\r|\n/);
  let last = 0;
  let cues = 0;
  for (const [i, line] of lines.entries()) {
    if (!line.includes('-->')) continue;
    const m = TIMING.exec(line);
    if (!m) return `line ${i + 1} is not a cue timing ("00:00:01.000 --> 00:00:02.000")`;
    const start = ms(m[1], m[2], m[3], m[4]);
    const end = ms(m[5], m[6], m[7], m[8]);
    if (end <= start) return `line ${i + 1}: a cue must end after it starts`;
    if (start < last) return `line ${i + 1}: cues must be in order of their start`;
    last = start;
    cues += 1;
  }
  return cues === 0 ? 'no cues' : undefined;
}

const isLanguageTag = (lang: string) => {
  if (!/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(lang)) return false;
  try {
    return Intl.getCanonicalLocales(lang).length === 1;
  } catch {
    return false;
  }
};

export function checkCaptions(captions: Caption[]): void {
  if (captions.length > MAX_CAPTIONS)
    throw new HeraldError('INVALID_INPUT', `At most ${MAX_CAPTIONS} captions per media item`, {
      details: [{ path: 'captions', message: `${captions.length} of at most ${MAX_CAPTIONS}` }],
    });
  const details: ErrorDetail[] = [];
  captions.forEach((c, i) => {
    if (!isLanguageTag(c.lang))
      details.push({ path: `captions.${i}.lang`, message: `"${c.lang}" is not a BCP 47 language tag` });
    const bytes = Buffer.byteLength(c.vtt, 'utf8');
    if (bytes > MAX_CAPTION_BYTES)
      details.push({ path: `captions.${i}.vtt`, message: `${bytes} bytes, over the limit of ${MAX_CAPTION_BYTES}` });
    else {
      const why = vttProblem(c.vtt);
      if (why) details.push({ path: `captions.${i}.vtt`, message: why });
    }
  });
  if (details.length > 0)
    throw new HeraldError('INVALID_INPUT', `Captions refused: ${details.map((d) => d.message).join('; ')}`, {
      details,
    });
}

export function parseCaptions(json: string): Caption[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? (v as Caption[]) : [];
  } catch {
    return [];
  }
}
