/** Plain text as the HTML a tweet's `content` holds: one paragraph, lines kept with `<br>`, every
 * character literal (nothing in the text is read as markup). Empty text gives ''. */
export function plainToHtml(plain: string): string {
  if (plain === '') return '';
  return `<p>${plain.split(/\r?\n/).map(escapeHtml).join('<br>')}</p>`;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
