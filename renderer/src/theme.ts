/** Light or dark: the stored choice, or the system's when the choice is "system". */
export function applyTheme(theme: string): void {
  const dark = theme === 'dark' || (theme === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}
