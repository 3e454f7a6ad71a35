/**
 * A small, honest guess at a post's language, offered to the person as a suggestion and never
 * applied on its own. Two steps: the writing system (Unicode ranges) settles most non-Latin
 * scripts at once; for Latin script, counts of very common words (articles, pronouns,
 * prepositions) of eight languages decide, and only with a clear lead. Too little text, or no
 * clear winner, answers null: "cannot tell" is better than a wrong tag on every post.
 */
export interface LanguageGuess {
  /** BCP 47 primary tag, e.g. "de". */
  language: string;
  /** How sure the guess is, 0..1 (share of the evidence that points to it). */
  confidence: number;
}

const SCRIPTS: [RegExp, string][] = [
  [/[\u3040-\u30ff]/g, 'ja'],
  [/[\uac00-\ud7af\u1100-\u11ff]/g, 'ko'],
  [/[\u4e00-\u9fff]/g, 'zh'],
  [/[\u0400-\u04ff]/g, 'ru'],
  [/[\u0370-\u03ff]/g, 'el'],
  [/[\u0600-\u06ff]/g, 'ar'],
  [/[\u0590-\u05ff]/g, 'he'],
  [/[\u0e00-\u0e7f]/g, 'th'],
  [/[\u0900-\u097f]/g, 'hi'],
  [/[\u0980-\u09ff]/g, 'bn'],
  [/[\u0b80-\u0bff]/g, 'ta'],
  [/[\u0530-\u058f]/g, 'hy'],
  [/[\u10a0-\u10ff]/g, 'ka'],
];

const STOP_WORDS: Record<string, string[]> = {
  en: [
    'the',
    'and',
    'is',
    'are',
    'of',
    'to',
    'in',
    'that',
    'it',
    'for',
    'with',
    'this',
    'you',
    'was',
    'on',
    'have',
    'be',
    'not',
    'we',
    'our',
    'my',
    'at',
    'by',
    'from',
    'will',
    'just',
    'what',
  ],
  de: [
    'der',
    'die',
    'das',
    'und',
    'ist',
    'nicht',
    'ich',
    'sie',
    'wir',
    'ein',
    'eine',
    'mit',
    'auf',
    'für',
    'den',
    'dem',
    'zu',
    'es',
    'auch',
    'sich',
    'von',
    'heute',
    'noch',
    'wie',
    'aber',
    'bei',
  ],
  fr: [
    'le',
    'la',
    'les',
    'et',
    'est',
    'un',
    'une',
    'des',
    'du',
    'je',
    'nous',
    'vous',
    'pour',
    'pas',
    'que',
    'qui',
    'dans',
    'sur',
    'avec',
    'ce',
    'cette',
    'au',
    'aux',
    'mais',
    'très',
    'sont',
  ],
  es: [
    'el',
    'la',
    'los',
    'las',
    'y',
    'es',
    'un',
    'una',
    'de',
    'que',
    'en',
    'por',
    'para',
    'con',
    'no',
    'muy',
    'pero',
    'del',
    'al',
    'lo',
    'está',
    'son',
    'como',
    'hoy',
    'nuestro',
    'yo',
  ],
  pt: [
    'o',
    'a',
    'os',
    'as',
    'e',
    'é',
    'um',
    'uma',
    'de',
    'que',
    'em',
    'não',
    'para',
    'com',
    'do',
    'da',
    'dos',
    'das',
    'no',
    'na',
    'mas',
    'muito',
    'você',
    'nós',
    'são',
    'hoje',
  ],
  it: [
    'il',
    'lo',
    'la',
    'gli',
    'le',
    'e',
    'è',
    'un',
    'una',
    'di',
    'che',
    'non',
    'per',
    'con',
    'del',
    'della',
    'sono',
    'ma',
    'anche',
    'molto',
    'oggi',
    'nel',
    'alla',
    'io',
    'noi',
    'questo',
  ],
  nl: [
    'de',
    'het',
    'een',
    'en',
    'is',
    'van',
    'dat',
    'niet',
    'ik',
    'we',
    'wij',
    'met',
    'voor',
    'op',
    'zijn',
    'ook',
    'maar',
    'er',
    'nog',
    'naar',
    'hij',
    'zij',
    'vandaag',
    'heel',
    'deze',
    'bij',
  ],
  pl: [
    'i',
    'w',
    'nie',
    'na',
    'się',
    'jest',
    'to',
    'że',
    'z',
    'do',
    'jak',
    'ale',
    'co',
    'tak',
    'czy',
    'już',
    'jestem',
    'bardzo',
    'dzisiaj',
    'dla',
    'od',
    'po',
    'są',
    'tylko',
    'nasz',
    'mam',
  ],
};

/** Letters that only some languages of a script use, to tell them apart. */
const REFINE: Record<string, [RegExp, string][]> = {
  ru: [
    [/[іїєґ]/i, 'uk'],
    [/[ўі]/i, 'be'],
  ],
  ar: [[/[پچژگ]/, 'fa']],
};

const MIN_LETTERS = 3;
const MIN_WORD_HITS = 2;

function strip(text: string): string {
  // Links, mentions and hashtags say nothing about the language of the sentence around them.
  return text.replace(/https?:\/\/\S+/gi, ' ').replace(/[@#][\p{L}\p{N}_.-]+/gu, ' ');
}

/** The likely language of `text`, or null when it cannot be told with confidence. */
export function detectLanguage(text: string): LanguageGuess | null {
  const clean = strip(text);
  const latin = clean.match(/[A-Za-z\u00c0-\u024f]/g)?.length ?? 0;
  let best: [string, number] | undefined;
  for (const [range, tag] of SCRIPTS) {
    const n = clean.match(range)?.length ?? 0;
    if (n > (best?.[1] ?? 0)) best = [tag, n];
  }
  // Japanese mixes kana and Han: any kana makes it Japanese rather than Chinese.
  if (best?.[0] === 'zh' && /[\u3040-\u30ff]/.test(clean)) best = ['ja', best[1]];
  if (best && best[1] >= MIN_LETTERS && best[1] > latin) {
    const refined = REFINE[best[0]]?.find(([re]) => re.test(clean))?.[1];
    return { language: refined ?? best[0], confidence: Math.min(1, best[1] / (best[1] + latin)) };
  }
  const words = clean.toLowerCase().match(/[\p{L}]+/gu) ?? [];
  if (words.length === 0) return null;
  const scores = Object.entries(STOP_WORDS)
    .map(([tag, list]) => {
      const set = new Set(list);
      return [tag, words.reduce((n, w) => n + (set.has(w) ? 1 : 0), 0)] as [string, number];
    })
    .sort((a, b) => b[1] - a[1]);
  const [top, second] = scores;
  if (top[1] < MIN_WORD_HITS || top[1] < second[1] * 1.5) return null;
  return { language: top[0], confidence: top[1] / scores.reduce((n, s) => n + s[1], 0) };
}
