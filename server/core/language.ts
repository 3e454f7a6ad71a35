/**
 * Language tags: a BCP 47 tag made canonical, and the language the machine's locale names.
 */
/** The tag in canonical form if it is well-formed BCP 47 ("en-gb" → "en-GB"), else undefined. */
export function validLanguage(tag: string | undefined): string | undefined {
  if (!tag) return undefined;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/** The system locale: LC_ALL / LC_MESSAGES / LANG ("de_DE.UTF-8" → "de-DE"), else Intl's default. */
export function systemLanguage(env: NodeJS.ProcessEnv = process.env): string {
  for (const v of [env.LC_ALL, env.LC_MESSAGES, env.LANG]) {
    const tag =
      v && v !== 'C' && v !== 'POSIX' ? validLanguage(v.split('.')[0].split('@')[0].replace('_', '-')) : undefined;
    if (tag) return tag;
  }
  return validLanguage(Intl.DateTimeFormat().resolvedOptions().locale) ?? 'en';
}
