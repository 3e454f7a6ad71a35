/**
 * The "Post options" panel: a poll, who may reply or quote, a content warning, sensitive media,
 * Bluesky self labels, visibility, the Threads topic tag, a quote and X's disclosure flags,
 * written once for every network. Each preview says what its network drops (OptionsPreview).
 */
import {
  POLL_LIMITS,
  QUOTE_CONTROLS,
  REPLY_CONTROLS,
  SELF_LABELS,
  VISIBILITIES,
  hasOptions,
  type PostOptionsValue,
} from '../../../../text/post-options';
import './options.css';

const DURATIONS: [number, string][] = [
  [60, '1 hour'],
  [360, '6 hours'],
  [1440, '1 day'],
  [4320, '3 days'],
  [10_080, '7 days'],
  [20_160, '14 days'],
];

export function OptionsPanel({
  options,
  onChange,
}: {
  options: PostOptionsValue | null | undefined;
  onChange: (options: PostOptionsValue | null) => void;
}) {
  const o = options ?? {};
  const set = (patch: Partial<PostOptionsValue>) => {
    const next = { ...o, ...patch };
    for (const k of Object.keys(next) as (keyof PostOptionsValue)[])
      if (next[k] === undefined || next[k] === null || next[k] === '' || next[k] === false) delete next[k];
    onChange(hasOptions(next) ? next : null);
  };
  const poll = o.poll;
  const choices = poll ? [...poll.choices] : [];
  const setChoice = (i: number, text: string) => {
    const list = [...choices];
    list[i] = text;
    set({ poll: { ...poll!, choices: list } });
  };
  return (
    <details className="panel compose-options" data-options-panel open={hasOptions(options) || undefined}>
      <summary>
        <strong>Post options</strong> <span className="muted small">{summary(o)}</span>
      </summary>
      <fieldset className="options-group">
        <label className="check">
          <input
            type="checkbox"
            checked={!!poll}
            onChange={(e) =>
              set({ poll: e.target.checked ? { choices: ['', ''], durationMinutes: 1440 } : null, pollFallback: null })
            }
          />{' '}
          Poll
        </label>
        {poll && (
          <div className="options-poll" data-options-poll>
            {choices.map((c, i) => (
              <input
                key={i}
                aria-label={`Choice ${i + 1}`}
                placeholder={`Choice ${i + 1}`}
                maxLength={POLL_LIMITS.choiceMax}
                value={c}
                onChange={(e) => setChoice(i, e.target.value)}
              />
            ))}
            <div className="row">
              {choices.length < POLL_LIMITS.maxChoices && (
                <button
                  type="button"
                  className="small"
                  onClick={() => set({ poll: { ...poll, choices: [...choices, ''] } })}
                >
                  Add choice
                </button>
              )}
              {choices.length > POLL_LIMITS.minChoices && (
                <button
                  type="button"
                  className="small"
                  onClick={() => set({ poll: { ...poll, choices: choices.slice(0, -1) } })}
                >
                  Remove last
                </button>
              )}
              <select
                aria-label="Poll length"
                value={poll.durationMinutes}
                onChange={(e) => set({ poll: { ...poll, durationMinutes: Number(e.target.value) } })}
              >
                {DURATIONS.map(([m, label]) => (
                  <option key={m} value={m}>
                    {label}
                  </option>
                ))}
              </select>
            </div>
            <label className="check small">
              <input
                type="checkbox"
                checked={o.pollFallback === 'text'}
                onChange={(e) => set({ pollFallback: e.target.checked ? 'text' : null })}
              />{' '}
              On Bluesky (no polls), add the choices as numbered lines
            </label>
          </div>
        )}
      </fieldset>
      <div className="options-grid">
        <Choice
          label="Who may reply"
          value={o.replyControl}
          values={REPLY_CONTROLS}
          onChange={(v) => set({ replyControl: v })}
        />
        <Choice
          label="Who may quote"
          value={o.quoteControl}
          values={QUOTE_CONTROLS}
          onChange={(v) => set({ quoteControl: v })}
        />
        <Choice
          label="Visibility"
          value={o.visibility}
          values={VISIBILITIES}
          onChange={(v) => set({ visibility: v })}
        />
        <label>
          <span className="small muted">Content warning</span>
          <input
            aria-label="Content warning"
            maxLength={500}
            value={o.contentWarning ?? ''}
            onChange={(e) => set({ contentWarning: e.target.value })}
          />
        </label>
        <label>
          <span className="small muted">Threads topic</span>
          <input
            aria-label="Topic tag"
            maxLength={50}
            value={o.topicTag ?? ''}
            onChange={(e) => set({ topicTag: e.target.value })}
          />
        </label>
        <label>
          <span className="small muted">Quote a post (its link)</span>
          <input
            aria-label="Quote URL"
            type="url"
            value={o.quoteUrl ?? ''}
            onChange={(e) => set({ quoteUrl: e.target.value })}
          />
        </label>
      </div>
      <div className="row options-flags">
        <label className="check small">
          <input
            type="checkbox"
            checked={!!o.sensitiveMedia}
            onChange={(e) => set({ sensitiveMedia: e.target.checked })}
          />{' '}
          Sensitive media
        </label>
        {SELF_LABELS.map((l) => (
          <label key={l} className="check small">
            <input
              type="checkbox"
              checked={!!o.selfLabels?.includes(l)}
              onChange={(e) => {
                const rest = (o.selfLabels ?? []).filter((x) => x !== l);
                const next = e.target.checked ? [...rest, l] : rest;
                set({ selfLabels: next.length ? next : null });
              }}
            />{' '}
            {l}
          </label>
        ))}
        <label className="check small">
          <input type="checkbox" checked={!!o.aiGenerated} onChange={(e) => set({ aiGenerated: e.target.checked })} />
          <span> Made with AI</span>
        </label>
        <label className="check small">
          <input
            type="checkbox"
            checked={!!o.paidPartnership}
            onChange={(e) => set({ paidPartnership: e.target.checked })}
          />{' '}
          Paid partnership
        </label>
      </div>
    </details>
  );
}

function Choice<T extends string>({
  label,
  value,
  values,
  onChange,
}: {
  label: string;
  value: T | null | undefined;
  values: readonly T[];
  onChange: (v: T | null) => void;
}) {
  return (
    <label>
      <span className="small muted">{label}</span>
      <select aria-label={label} value={value ?? ''} onChange={(e) => onChange((e.target.value || null) as T | null)}>
        <option value="">Network default</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </label>
  );
}

function summary(o: PostOptionsValue): string {
  const parts: string[] = [];
  if (o.poll) parts.push(`poll of ${o.poll.choices.length}`);
  if (o.replyControl) parts.push(`replies: ${o.replyControl}`);
  if (o.contentWarning) parts.push('content warning');
  if (o.quoteUrl) parts.push('quote');
  if (o.visibility) parts.push(o.visibility);
  return parts.length ? parts.join(' · ') : 'none';
}
