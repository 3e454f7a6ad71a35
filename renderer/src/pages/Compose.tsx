/**
 * The composer: a thread of posts with live per-network counters and previews (counted by the
 * same text/ module the server uses), media by drag and drop with alt text, templates,
 * per-network text, and publish now (with live progress), schedule or queue.
 *
 * This page is layout. What it shows follows from the composition in one pure step
 * (compose/derive.ts); loading, saving (every change is in Drafts within a second), publishing,
 * scheduling and queueing are compose/useComposer.ts; editing the thread is compose/editor-calls.ts.
 * What the editor shows is what is sent: a template's head and tail are put into the first and
 * last post when it is picked (and taken out when it is changed), so the counters count them.
 */
import { Fragment, memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { NETWORK_LABELS } from '../../../text/index';
import { ErrorText, Notice, Page, StatusChip } from '../components/ui';
import { SpendMeter } from '../components/SpendMeter';
import { ConfirmPublish } from './compose/ConfirmPublish';
import { cardLinkOf, derive } from './compose/derive';
import { Details } from './compose/Details';
import { OptionsPanel } from './compose/OptionsPanel';
import { withOptions } from './compose/OptionsPreview';
import { EvergreenToggle } from './compose/EvergreenToggle';
import { useEditorCalls } from './compose/editor-calls';
import { LinkCard, useLinkCard } from './compose/LinkCard';
import { PostEditor } from './compose/PostEditor';
import { useRelayReady } from './compose/relay-ready';
import { Previews } from './compose/Previews';
import { Rules } from './compose/Rules';
import { SendPanel } from './compose/SendPanel';
import { useComposer } from './compose/useComposer';

// Neither changes with the text: a key does not draw them again.
const Options = memo(OptionsPanel);
const Evergreen = memo(EvergreenToggle);

export function Compose({ params }: { params: URLSearchParams }) {
  const k = useComposer(params.get('draft') ?? undefined, params.get('new'));
  const { c } = k;
  const [dragOver, setDragOver] = useState<number | undefined>();
  const [confirming, setConfirming] = useState(false);

  const cardState = useLinkCard(cardLinkOf(c.posts, c.linkCard));
  const relayReady = useRelayReady();
  const d = useMemo(
    () =>
      derive({
        posts: c.posts,
        overrides: c.overrides,
        linkCard: c.linkCard,
        platforms: k.platforms,
        facts: k.facts,
        card: cardState,
        targets: k.targets.length,
        relayReady,
      }),
    [c.posts, c.overrides, c.linkCard, k.platforms, k.facts, cardState, k.targets.length, relayReady],
  );
  const previews = useMemo(() => withOptions(d.previews, c.options), [d.previews, c.options]);
  // A network that cannot take the post's options (or Threads its links) stops the send as the
  // server would, before it is asked.
  const optionsBlock = previews.filter((p) => p.optionsBlock).map((p) => NETWORK_LABELS[p.platform]);
  const canSend = d.canSend && optionsBlock.length === 0 && !k.busy;
  const calls = useEditorCalls(k, d.withThreads);
  const setDrag = useCallback((i: number | undefined) => setDragOver(i), []);
  const { edit } = k;
  const setOptions = useCallback((options: typeof c.options) => edit((s) => ({ ...s, options })), [edit]);

  // Publish now asks first, by mouse as by Ctrl+Enter; Ctrl+S saves (Ctrl+N, a new draft, and
  // "?", the list of shortcuts, are app-wide).
  const confirm = () => {
    if (canSend && c.status !== 'scheduled') setConfirming(true);
    else if (c.status === 'scheduled')
      k.setError('This draft is scheduled: change its time, or cancel it in Queue first.');
    else
      k.setError(d.hasContent ? 'Nothing can be published yet: see the rules and previews.' : 'Write something first.');
  };
  const keys = useRef({ confirm, save: k.saveNow });
  keys.current = { confirm, save: k.saveNow };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      if (e.key === 'Enter') {
        e.preventDefault();
        keys.current.confirm();
      } else if (e.key.toLowerCase() === 's') {
        e.preventDefault();
        void keys.current.save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const loadError = k.sets.error ?? k.accounts.error ?? k.templates.error;
  const actions = (
    <div className="row">
      {c.status && c.status !== 'draft' && <StatusChip status={c.status} />}
      <span className="muted small" data-unsaved={k.dirty ? '' : undefined} data-saved={k.dirty ? undefined : ''}>
        {k.dirty ? 'Unsaved' : c.draftId ? 'Saved in Drafts' : ''}
      </span>
      <button type="button" onClick={k.startNew} title="Ctrl+N: this draft stays in Drafts">
        New
      </button>
      <button type="button" disabled={k.busy} onClick={() => void k.saveNow()} title="Ctrl+S">
        Save draft
      </button>
    </div>
  );
  return (
    <Page title={c.draftId ? 'Edit draft' : 'New draft'} actions={actions}>
      <ErrorText error={loadError ?? k.error} />
      <Notice data-notice="">{k.notice}</Notice>
      {k.credits.data?.warning && (
        <p className="error" role="alert" data-credits-warning>
          {k.credits.data.warning}
        </p>
      )}
      <SpendMeter spend={k.credits.data?.xSpend} balance={k.credits.data?.balance} />
      <div className="compose-grid">
        <section aria-label="Editor" className={`compose-editor${c.posts.length > 6 ? ' editor-many' : ''}`}>
          <Details k={k} pickTemplate={calls.pickTemplate} />
          <Options options={c.options} onChange={setOptions} />
          <div className="compose-posts">
            {c.posts.map((p, i) => (
              <Fragment key={p.key}>
                <PostEditor
                  i={i}
                  post={p}
                  count={c.posts.length}
                  verdicts={d.editorVerdicts[i]}
                  dragOver={dragOver === i}
                  setDragOver={setDrag}
                  {...calls}
                />
                {i === d.cardPost && (
                  <LinkCard
                    choice={c.linkCard}
                    firstPostLink={d.firstPostLink}
                    links={d.links}
                    onChange={(linkCard) => k.edit((s) => ({ ...s, linkCard }))}
                  />
                )}
              </Fragment>
            ))}
            <button type="button" onClick={calls.addPost}>
              Add post to thread
            </button>
          </div>
          <SendPanel k={k} canSend={canSend} tooLong={d.tooLong} optionsBlock={optionsBlock} onPublish={confirm} />
          <Evergreen draftId={c.draftId} />
        </section>

        <div className="compose-side">
          <Rules
            previews={d.previews}
            posts={c.posts}
            issues={d.issues}
            onSplitThread={calls.splitThread}
            onSplitMedia={d.withThreads.length ? calls.splitImages : undefined}
          />
          <Previews
            previews={previews}
            overrides={c.overrides}
            posts={c.posts}
            setOverride={calls.setOverride}
            options={c.options}
          />
        </div>
      </div>
      {confirming && (
        <ConfirmPublish
          targets={k.targets}
          issues={d.issues}
          postsOf={(pl) => d.previews.find((x) => x.platform === pl)?.posts.length ?? 0}
          onPublish={(ids) => {
            setConfirming(false);
            void k.publishNow(ids);
          }}
          onClose={() => setConfirming(false)}
        />
      )}
    </Page>
  );
}
