/**
 * The draft's secondary fields: title, social set, template, accounts and language. Above the
 * posts on a wide window; on a phone the text comes first and these follow it, folded.
 */
import { useState } from 'react';
import { AccountPicker } from './AccountPicker';
import { LanguagePicker } from './Language';
import type { Composer } from './useComposer';

export function Details({ k, pickTemplate }: { k: Composer; pickTemplate: (id: string) => void }) {
  const { c, edit, defaultSet } = k;
  const chosen = k.targets.map((a) => `@${a.username}`).join(', ');
  // Folded on a phone, where the text box comes first.
  const [open, setOpen] = useState(() => !window.matchMedia?.('(max-width: 700px)').matches);
  return (
    <details
      className="panel compose-details"
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-compose-details
    >
      <summary className="small muted">
        <span className="details-summary">
          {c.title.trim() || 'Title, set, template'} · {chosen || 'no accounts'}
        </span>
      </summary>
      <input
        className="full"
        aria-label="Title"
        placeholder="Title (optional)"
        value={c.title}
        onChange={(e) => {
          const title = e.target.value;
          edit((s) => ({ ...s, title }));
        }}
      />
      <div className="row" style={{ marginTop: 10 }}>
        <select
          aria-label="Social set"
          value={c.socialSetId}
          onChange={(e) => {
            const id = e.target.value;
            edit((s) => ({ ...s, socialSetId: id, selectedAccountIds: [] }));
          }}
        >
          <option value="">{defaultSet ? `${defaultSet.name} (default)` : 'No social set'}</option>
          {k.sets.data
            ?.filter((s) => !s.isDefault)
            .map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
        </select>
        <select aria-label="Template" value={c.templateId} onChange={(e) => pickTemplate(e.target.value)}>
          <option value="">No template</option>
          {k.templates.data?.map((t) => (
            <option key={t.uuid} value={t.uuid}>
              {t.name}
            </option>
          ))}
        </select>
      </div>
      <AccountPicker
        setAccounts={k.setAccounts}
        targets={k.targets}
        onChange={(selected) => edit((s) => ({ ...s, selectedAccountIds: selected }))}
      />
      <LanguagePicker
        language={c.language}
        defaultLanguage={k.settings.data?.defaultLanguage}
        posts={c.posts}
        onChange={(language) => edit((s) => ({ ...s, language }))}
      />
    </details>
  );
}
