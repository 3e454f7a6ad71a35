/**
 * The draft's post language (sent as Bluesky `langs` and Mastodon `language`): the default from
 * the settings, or a tag picked per draft. "Detect" offers a guess from the text (text/language.ts)
 * that the person applies or ignores; it is never applied on its own.
 */
import { useState } from 'react';
import { detectLanguage } from '../../../../text/index';

const COMMON = [
  'en',
  'de',
  'fr',
  'es',
  'pt',
  'it',
  'nl',
  'pl',
  'sv',
  'uk',
  'ru',
  'tr',
  'ja',
  'ko',
  'zh',
  'ar',
  'he',
  'hi',
];

// The page draws about twenty names on every keystroke: a DisplayNames costs far more than a lookup.
const names = new Map<string, string>();
let display: Intl.DisplayNames | undefined;
function nameOf(tag: string): string {
  let name = names.get(tag);
  if (name === undefined) {
    try {
      name = (display ??= new Intl.DisplayNames(['en'], { type: 'language' })).of(tag) ?? tag;
    } catch {
      name = tag;
    }
    names.set(tag, name);
  }
  return name;
}

export function LanguagePicker({
  language,
  defaultLanguage,
  posts,
  onChange,
}: {
  language: string | null;
  defaultLanguage: string | undefined;
  /** The draft's posts, whose text is read for detection (only when asked). */
  posts: readonly { text: string }[];
  onChange: (language: string | null) => void;
}) {
  const [guess, setGuess] = useState<{ language: string } | null | undefined>();
  const options = [...new Set([...(language ? [language] : []), ...COMMON])];
  return (
    <div className="row small" data-language>
      <label className="row" style={{ gap: 6 }}>
        Language
        <select
          aria-label="Post language"
          value={language ?? ''}
          onChange={(e) => {
            onChange(e.target.value || null);
            setGuess(undefined);
          }}
        >
          <option value="">Default{defaultLanguage ? ` (${nameOf(defaultLanguage)}, ${defaultLanguage})` : ''}</option>
          {options.map((tag) => (
            <option key={tag} value={tag}>
              {nameOf(tag)} ({tag})
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="small"
        disabled={!posts.some((p) => p.text.trim())}
        onClick={() => setGuess(detectLanguage(posts.map((p) => p.text).join('\n')))}
      >
        Detect
      </button>
      {guess === null && (
        <span className="muted" data-language-guess="none">
          Cannot tell from this text.
        </span>
      )}
      {guess &&
        (guess.language === language ? (
          <span className="muted" data-language-guess={guess.language}>
            Looks like {nameOf(guess.language)}, as set.
          </span>
        ) : (
          <span data-language-guess={guess.language}>
            Looks like {nameOf(guess.language)} ({guess.language}).{' '}
            <button
              type="button"
              className="small"
              onClick={() => {
                onChange(guess.language);
                setGuess(undefined);
              }}
            >
              Use {nameOf(guess.language)}
            </button>
          </span>
        ))}
    </div>
  );
}
