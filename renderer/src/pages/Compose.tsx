/**
 * The composer: a thread of posts with live per-network counters and previews (counted by the
 * same text/ module the server uses), media by drag and drop with alt text, templates,
 * per-network text, and publish now (with live progress) or schedule (the jittered fire times
 * shown). Unsaved work is kept in localStorage so a crash or a closed window loses nothing.
 *
 * What the editor shows is what is sent: a template's head and tail are put into the first and
 * last post when it is picked (and taken out when it is changed), so the counters count them.
 * Posts are sent to the server as escaped HTML, so text that looks like markup stays text.
 */
import { Fragment, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  firstLink, linksIn, PLATFORMS, plainToHtml, postsForNetwork, splitThreadText,
  type Platform,
} from '../../../text/index';
import { publishSummaryText } from '../../../text/status-text';
import { client, message } from '../api';
import { navigate } from '../router';
import { ErrorText, networkName, Notice, Page, StatusChip } from '../components/ui';
import { useAction, useLoad } from '../hooks';
import { blank, blankPost, localInput, newKey, slot, swapTemplate, UNSAVED, zone, type Composition, type MediaRef, type Post, type Progress, type Template } from './compose/model';
import { useNetworkFacts } from './compose/facts';
import { mediaSizes, withSizes } from './compose/media-sizes';
import { Previews, type NetworkPreview } from './compose/Previews';
import { PostEditor } from './compose/PostEditor';
import { verdictOf } from './compose/preview/analysis';
import { ruleIssues, Rules } from './compose/Rules';
import { imagesPerPost, splitMedia, splitOverride, splitPosts, splitText, threaded } from './compose/thread-ops';
import { ConfirmPublish } from './compose/ConfirmPublish';
import { showShortcuts } from '../components/Shortcuts';
import { AccountPicker, pickTargets } from './compose/AccountPicker';
import { cardUrl, LinkCard, useLinkCard } from './compose/LinkCard';
import { LanguagePicker } from './compose/Language';
import { FireTimes, SendProgress } from './compose/SendProgress';
import { DstNote, formatLocal, instantIn, PerNetworkTimes, useTimes } from './compose/Timing';
import { SpendMeter } from '../components/SpendMeter';

export function Compose({ params }: { params: URLSearchParams }) {
  const draftParam = params.get('draft') ?? undefined;
  const [c, setC] = useState<Composition>(blank);
  const [dirty, setDirty] = useState(false);
  const [notice, setNotice] = useState<string>();
  const [progress, setProgress] = useState<Progress>();
  const [when_, setWhen] = useState(() => localInput(new Date(Date.now() + 60 * 60_000)));
  const [requested, setRequested] = useState<number>();
  const [jitter, setJitter] = useState(true);
  const [perNetwork, setPerNetwork] = useState<Record<string, string>>();
  const [dragOver, setDragOver] = useState<number | undefined>();
  const [confirming, setConfirming] = useState(false);
  const { busy, error, run, setError } = useAction();

  const sets = useLoad(() => client.listSocialSets().then((r) => r.socialSets));
  const accounts = useLoad(() => client.listAccounts().then((r) => r.accounts));
  const templates = useLoad(() => client.listTemplates().then((r) => r.templates as Template[]));
  const settings = useLoad(() => client.settings().then((r) => r.settings));
  const schedules = useLoad(() => (c.draftId ? client.listSchedules().then((r) => r.schedules.filter((s) => s.draftId === c.draftId)) : Promise.resolve([])), [c.draftId]);

  // Load a draft, or restore unsaved work for a new one.
  useEffect(() => {
    setProgress(undefined); setNotice(undefined); setError(undefined);
    const restore = (): boolean => {
      try {
        const saved = JSON.parse(localStorage.getItem(slot(draftParam)) ?? 'null') as Composition | null;
        if (!saved || (saved.draftId ?? undefined) !== draftParam || !Array.isArray(saved.posts)) return false;
        setC({ ...blank(), ...saved, posts: saved.posts.map((p) => ({ ...p, key: newKey() })) });
        setDirty(true);
        setNotice(draftParam ? 'Restored changes that were not saved.' : 'Restored unsaved work.');
        return true;
      } catch {
        return false; // a broken copy is ignored
      }
    };
    if (!params.get('new') && restore()) return;
    if (!draftParam) {
      // `new` asks for a clean start once; a reload of this page should restore, not clear again.
      if (params.get('new')) window.history.replaceState(null, '', '#/compose');
      localStorage.removeItem(UNSAVED);
      setC(blank());
      setDirty(false);
      return;
    }
    void run(async () => {
      const [{ draft }, { platforms }] = await Promise.all([client.getDraft(draftParam), client.getDraftPlatforms(draftParam)]);
      const posts = draft.tweets.map((t) => ({ key: newKey(), text: t.plainText, media: t.media.filter((m) => m.type).map((m) => ({ mediaId: m.mediaId, altText: m.altText ?? '', type: m.type!, url: `${client.baseUrl}/media/${m.mediaId}` })) }));
      setC({
        draftId: draft.id,
        title: draft.title,
        posts,
        socialSetId: draft.socialSetId ?? '',
        selectedAccountIds: draft.selectedAccountIds,
        templateId: draft.templateId ?? '', savedTemplateId: draft.templateId ?? '',
        overrides: Object.fromEntries(platforms.map((p) => [p.platform, p.content])),
        status: draft.status, language: draft.language, linkCard: draft.linkCard,
      });
      setRequested(draft.scheduledFor ? Date.parse(draft.scheduledFor) : undefined);
      setDirty(false);
      void mediaSizes(posts.flatMap((p) => p.media)).then((sizes) => setC((cur) => (cur.draftId === draft.id ? withSizes(cur, sizes) : cur)));
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draftParam, params.get('new')]);

  // Keep unsaved work safe on every change. No beforeunload prompt: nothing is lost by leaving,
  // and inside Electron such a handler would silently stop the window from closing.
  useEffect(() => {
    if (dirty) localStorage.setItem(slot(c.draftId), JSON.stringify(c));
  }, [c, dirty]);

  const edit = (fn: (c: Composition) => Composition) => { setC(fn); setDirty(true); };
  const setPost = (i: number, p: Partial<Post>) => edit((s) => ({ ...s, posts: s.posts.map((q, j) => (j === i ? { ...q, ...p } : q)) }));

  const defaultSet = sets.data?.find((s) => s.isDefault) ?? sets.data?.[0];
  const set = sets.data?.find((s) => s.id === c.socialSetId) ?? defaultSet;
  const setAccounts = (set?.accounts ?? []).map((a) => accounts.data?.find((x) => x.uuid === a.accountId) ?? { uuid: a.accountId, platform: a.platform, username: a.username, status: 'active' as const });
  // Accounts that cannot post are left out (AccountPicker says why, with a Reconnect link).
  const targets = pickTargets(setAccounts, c.selectedAccountIds);
  const platforms = useMemo(() => {
    const ps = [...new Set(targets.map((a) => a.platform as Platform))];
    return ps.length ? PLATFORMS.filter((p) => ps.includes(p)) : (['microblog'] as Platform[]);
  }, [targets]);

  const facts = useNetworkFacts(platforms, targets);

  const firstPostLink = firstLink(c.posts[0]?.text ?? '');
  const links = [...new Set(c.posts.flatMap((p) => linksIn(p.text)))];
  const cardLink = cardUrl(c.linkCard, firstPostLink);
  const cardPost = Math.max(0, cardLink ? c.posts.findIndex((p) => p.text.includes(cardLink)) : 0);
  // The previews show the card the server read (its image only through Herald: links are not loaded).
  const cardState = useLinkCard(cardLink);
  const card = cardState?.card ? { ...cardState.card, imageUrl: null } : undefined;
  const previews: NetworkPreview[] = platforms.map((platform) => {
    const opts = facts.opts[platform] ?? {};
    const posts = postsForNetwork(platform, c.posts.map((p) => ({ plainText: p.text, media: p.media })), c.overrides[platform]);
    const verdicts = posts.map((p) => verdictOf(platform, p.text, p.media.map((m) => m.type), opts));
    const at = card && cardLink ? posts.findIndex((p) => p.text.includes(cardLink)) : -1;
    const cards = at >= 0 ? posts.map((_, i) => (i === at ? card : undefined)) : undefined;
    return { platform, posts, verdicts, valid: posts.length > 0 && verdicts.every((v) => v.valid), identity: facts.ids[platform]!, opts, cards };
  });
  const issues = ruleIssues(previews, c.posts);
  for (const p of previews) p.warning = issues.find((x) => x.platform === p.platform && x.kind === 'public-media')?.text;
  const hasContent = c.posts.some((p) => p.text.trim() || p.media.length);
  const allValid = hasContent && previews.every((p) => p.valid);
  const canSend = allValid && targets.length > 0 && !busy;

  async function save(): Promise<string> {
    if (!hasContent) throw new Error('Write something first.');
    const body = {
      title: c.title.trim() || c.posts.find((p) => p.text.trim())?.text.trim().split('\n')[0].slice(0, 80) || 'Untitled',
      tweets: c.posts.map((p, position) => ({ content: plainToHtml(p.text), position, media: p.media.map((m) => ({ mediaId: m.mediaId, altText: m.altText || undefined })) })),
      socialSetId: c.socialSetId || undefined,
      // Leaving out an account that cannot post is a choice the draft keeps (the queue reads it).
      selectedAccountIds: c.selectedAccountIds.length || targets.length === setAccounts.length ? c.selectedAccountIds : targets.map((a) => a.uuid),
      language: c.language, linkCard: c.linkCard,
    };
    const { draft } = c.draftId ? await client.updateDraft(c.draftId, body) : await client.createDraft(body);
    // Given with posts, a template would be put into them again: it is recorded on its own.
    if ((c.templateId || '') !== (c.savedTemplateId || '')) await client.updateDraft(draft.id, { templateId: c.templateId || null });
    await client.setDraftPlatforms(draft.id, { platforms: PLATFORMS.map((platform) => ({ platform, content: c.overrides[platform] ?? '' })) });
    localStorage.removeItem(slot(c.draftId));
    setDirty(false);
    setC((s) => ({ ...s, draftId: draft.id, title: body.title, savedTemplateId: s.templateId, status: draft.status }));
    if (!c.draftId) window.history.replaceState(null, '', `#/compose?draft=${draft.id}`);
    return draft.id;
  }

  // Live progress from the event stream (GET /events): each event of this draft wakes one
  // progress read; every (re)connect reads it once, catching up on what the stream missed.
  const following = useRef<AbortController>(undefined);
  useEffect(() => () => following.current?.abort(), []);
  async function follow(jobId: string, draftId: string) {
    following.current?.abort();
    const ac = new AbortController();
    following.current = ac;
    let last: Progress | undefined;
    const refresh = async () => {
      const p = await client.publishProgress({ jobId }).catch(() => undefined);
      if (!p || ac.signal.aborted) return;
      last = p;
      setProgress(p);
      if (p.summary.pending === 0) ac.abort();
    };
    while (!ac.signal.aborted) {
      try {
        for await (const e of client.events({ signal: ac.signal, onOpen: () => void refresh() })) {
          if (e.type.startsWith('post.') && e.data.draftId === draftId) await refresh();
        }
      } catch { /* the stream dropped: reconnect (and read the progress once) below */ }
      if (!ac.signal.aborted) await new Promise((r) => setTimeout(r, 1000));
    }
    // Left the page, or another publish took over: no summary for this one.
    if (!last || last.summary.pending > 0) return;
    const p = last;
    const status = p.summary.failed === 0 ? 'published' : p.summary.completed === 0 ? 'failed' : 'partially_published';
    setC((s) => ({ ...s, status }));
    setNotice(publishSummaryText(p.entries.map((e) => ({ status: e.status, network: networkName(e.platform), reason: e.error, errorCode: e.errorCode })), times.at).text);
  }

  const publishNow = (accountIds = targets.map((a) => a.uuid)) => run(async () => {
    setConfirming(false);
    if (!targets.length) throw new Error('Connect an account and add it to a social set first.');
    const id = await save();
    setNotice(undefined);
    const { jobId, warnings } = await client.publishAsync(id, { accountIds });
    await follow(jobId, id);
    // Over X's spend cap set to warn: it went, and the notice says so.
    if (warnings?.length) setNotice((n) => [n, ...warnings].filter(Boolean).join(' '));
  });

  const times = useTimes(), setZone = set?.timeZone ?? times.userZone ?? zone(); // no set: the user's zone
  // The default time (an hour from now) as the set's clock shows it, until the user picks one.
  const whenTouched = useRef(false);
  useEffect(() => { if (!whenTouched.current) setWhen(formatLocal(setZone, Date.now() + 60 * 60_000).local); }, [setZone]);
  const scheduleIt = () => run(async () => {
    if (!targets.length) throw new Error('Connect an account and add it to a social set first.');
    // Entered in the set's zone; with per-network times each account has its own.
    const timeOf = (accountId?: string) => instantIn(setZone, (accountId && perNetwork?.[accountId]) || when_);
    const all = perNetwork ? targets.map((a) => timeOf(a.uuid)) : [timeOf()];
    if (all.some((t) => Number.isNaN(t) || t <= Date.now())) throw new Error('Pick a time in the future.');
    const at = Math.min(...all);
    const id = await save();
    const r = await client.schedule({
      draftId: id, scheduledFor: perNetwork ? undefined : new Date(at).toISOString(), applyJitter: jitter,
      targetAccounts: targets.map((a) => ({ accountId: a.uuid, platform: a.platform as Platform, ...(perNetwork ? { scheduledFor: new Date(timeOf(a.uuid)).toISOString() } : {}) })),
    });
    setRequested(at);
    setC((s) => ({ ...s, status: 'scheduled' }));
    setNotice([r.message, ...(r.warnings ?? [])].join(' '));
    await schedules.reload();
  });

  const queueIt = () => run(async () => {
    if (!targets.length) throw new Error('Connect an account and add it to a social set first.');
    const id = await save();
    const r = await client.addToQueue({ draftId: id, socialSetId: set?.id, applyJitter: jitter });
    setRequested(Date.parse(r.slot.at));
    setC((s) => ({ ...s, status: 'scheduled' }));
    setNotice([`Queued for ${times.scheduled(r.slot.at, r.slot.timeZone)}.`, ...(r.warnings ?? [])].join(' '));
    await schedules.reload();
  });

  // Shortcuts: Ctrl+Enter opens the publish confirmation (never publishes at once), Ctrl+S
  // saves (Ctrl+N, a new draft, and "?", the list of shortcuts, are app-wide).
  const confirm = () => { if (canSend) setConfirming(true); else setError(hasContent ? 'Nothing can be published yet: see the rules and previews.' : 'Write something first.'); };
  const keys = useRef({ confirm, save: () => run(async () => { await save(); setNotice('Saved.'); }) });
  keys.current = { confirm, save: () => run(async () => { await save(); setNotice('Saved.'); }) };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      if (e.key === 'Enter') { e.preventDefault(); keys.current.confirm(); }
      else if (e.key.toLowerCase() === 's') { e.preventDefault(); void keys.current.save(); }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  async function addFiles(i: number, files: File[]) {
    if (!files.length) return;
    await run(async () => {
      // The most any selected network takes in one post; more than one takes is offered a split.
      const most = Math.max(4, ...platforms.map((pl) => imagesPerPost([pl], facts.opts)));
      const room = most - c.posts[i].media.length;
      if (files.length > room) throw new Error(`A post holds at most ${most} media items here; ${room} more fit.`);
      setNotice(`Uploading ${files.length} file${files.length === 1 ? '' : 's'}…`);
      const added: MediaRef[] = [];
      // The upload takes at most 4 files a request.
      for (let k = 0; k < files.length; k += 4) {
        const batch = files.slice(k, k + 4);
        const r = await client.uploadMedia(batch.map((f) => ({ name: f.name, data: f })));
        added.push(...r.data.uploads.map((u, j) => ({ mediaId: u.mediaId, altText: '', type: u.type, url: u.url, size: batch[j]?.size })));
      }
      setC((s) => ({ ...s, posts: s.posts.map((q, j) => (j === i ? { ...q, media: [...q.media, ...added] } : q)) }));
      setDirty(true);
      setNotice(undefined);
    });
  }

  /** Pasting text with a line holding only --- makes one post per part. */
  function pasteThread(i: number, e: React.ClipboardEvent<HTMLTextAreaElement>) {
    const files = [...e.clipboardData.files];
    if (files.length) { e.preventDefault(); void addFiles(i, files); return; }
    const pasted = e.clipboardData.getData('text/plain');
    const parts = splitThreadText(pasted);
    if (parts.length < 2) return;
    e.preventDefault();
    const el = e.currentTarget;
    const before = el.value.slice(0, el.selectionStart);
    const after = el.value.slice(el.selectionEnd);
    const texts = [before + parts[0], ...parts.slice(1, -1), parts[parts.length - 1] + after];
    edit((s) => ({ ...s, posts: [...s.posts.slice(0, i), { ...s.posts[i], text: texts[0] }, ...texts.slice(1).map((t) => blankPost(t)), ...s.posts.slice(i + 1)] }));
  }

  const withThreads = threaded(platforms, facts.opts);
  function splitPost(i: number) {
    const parts = splitText(c.posts[i].text, withThreads.length ? withThreads : platforms, facts.opts);
    if (parts.length < 2) return;
    edit((s) => ({ ...s, posts: [...s.posts.slice(0, i), { ...s.posts[i], text: parts[0] }, ...parts.slice(1).map((t) => blankPost(t)), ...s.posts.slice(i + 1)] }));
  }
  /** The rules panel's "Split into a thread": the network's own text if it has one, else the thread for every threaded network. */
  const splitThread = (platform?: Platform) => {
    if (platform && c.overrides[platform]?.trim()) edit((s) => ({ ...s, overrides: { ...s.overrides, [platform]: splitOverride(s.overrides[platform] ?? '', platform, facts.opts) } }));
    else edit((s) => ({ ...s, posts: splitPosts(s.posts, threaded(platforms.filter((pl) => !s.overrides[pl]?.trim()), facts.opts), facts.opts) }));
  };
  const splitImages = () => edit((s) => ({ ...s, posts: splitMedia(s.posts, imagesPerPost(withThreads, facts.opts)) }));

  // Stable callbacks for the memoised post editors: they call whatever this render holds.
  const ops = useRef({ setPost, pasteThread, splitPost, addFiles });
  ops.current = { setPost, pasteThread, splitPost, addFiles };
  const editorCalls = useMemo(() => ({
    onText: (i: number, text: string) => ops.current.setPost(i, { text }),
    onPaste: (i: number, e: React.ClipboardEvent<HTMLTextAreaElement>) => ops.current.pasteThread(i, e),
    onMove: (i: number, by: -1 | 1) => edit((s) => { const a = [...s.posts]; [a[i + by], a[i]] = [a[i], a[i + by]]; return { ...s, posts: a }; }),
    onSplit: (i: number) => ops.current.splitPost(i),
    onRemove: (i: number) => edit((s) => ({ ...s, posts: s.posts.filter((_, j) => j !== i) })),
    onFiles: (i: number, files: File[]) => void ops.current.addFiles(i, files),
    onMedia: (i: number, media: Post['media']) => ops.current.setPost(i, { media }),
    onAltSaved: (m: Post['media'][number], alt: string) => void client.setMediaAltText(m.mediaId, alt).catch((err) => setError(message(err))),
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }), []);
  const setDrag = useCallback((i: number | undefined) => setDragOver(i), []);

  const pickTemplate = (id: string) => edit((s) => {
    const all = templates.data ?? [];
    const from = all.find((t) => t.uuid === s.templateId);
    const to = all.find((t) => t.uuid === id);
    return { ...s, templateId: id, posts: swapTemplate(s.posts, from, to) };
  });

  const threadPlatforms = platforms.filter((pl) => !c.overrides[pl]?.trim());
  const editorVerdicts = c.posts.map((p) => threadPlatforms.map((pl) => ({ pl, v: verdictOf(pl, p.text, p.media.map((m) => m.type), facts.opts[pl]) })));
  const tooLong = editorVerdicts.some((vs) => vs.some((x) => x.v.count > x.v.limit))
    || previews.some((p) => p.verdicts.some((v) => !v.valid && v.reason !== 'the post is empty'));
  // The month's credits against what is scheduled, so a shortfall shows before posts fail.
  const credits = useLoad(() => client.credits(), [schedules.data]);
  const loadError = sets.error ?? accounts.error ?? templates.error;
  // The card sits under the post that holds its link (else the first post).
  return (
    <Page title={c.draftId ? 'Edit draft' : 'New draft'} actions={
      <div className="row">
        {c.status && c.status !== 'draft' && <StatusChip status={c.status} />}
        {dirty && <span className="muted small" data-unsaved>Unsaved</span>}
        <button type="button" onClick={() => navigate('compose', { new: String(Date.now()) })} title="Ctrl+N">New</button>
        <button type="button" disabled={busy} onClick={() => void keys.current.save()} title="Ctrl+S">Save draft</button>
      </div>}>
      <ErrorText error={loadError ?? error} />
      <Notice data-notice="">{notice}</Notice>
      {credits.data?.warning && <p className="error" role="alert" data-credits-warning>{credits.data.warning}</p>}
      <SpendMeter spend={credits.data?.xSpend} balance={credits.data?.balance} />
      <div className="compose-grid">
        <section aria-label="Editor" className={c.posts.length > 6 ? 'editor-many' : undefined}>
          <div className="panel">
            <input className="full" aria-label="Title" placeholder="Title (optional)" value={c.title} onChange={(e) => edit((s) => ({ ...s, title: e.target.value }))} />
            <div className="row" style={{ marginTop: 10 }}>
              <select aria-label="Social set" value={c.socialSetId} onChange={(e) => edit((s) => ({ ...s, socialSetId: e.target.value, selectedAccountIds: [] }))}>
                <option value="">{defaultSet ? `${defaultSet.name} (default)` : 'No social set'}</option>
                {sets.data?.filter((s) => !s.isDefault).map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
              </select>
              <select aria-label="Template" value={c.templateId} onChange={(e) => pickTemplate(e.target.value)}>
                <option value="">No template</option>
                {templates.data?.map((t) => <option key={t.uuid} value={t.uuid}>{t.name}</option>)}
              </select>
            </div>
            <AccountPicker setAccounts={setAccounts} targets={targets} onChange={(selected) => edit((s) => ({ ...s, selectedAccountIds: selected }))} />
            <LanguagePicker language={c.language} defaultLanguage={settings.data?.defaultLanguage} text={c.posts.map((p) => p.text).join('\n')} onChange={(language) => edit((s) => ({ ...s, language }))} />
          </div>

          {c.posts.map((p, i) => (
            <Fragment key={p.key}>
              <PostEditor i={i} post={p} count={c.posts.length} verdicts={editorVerdicts[i]} dragOver={dragOver === i} setDragOver={setDrag} {...editorCalls} />
              {i === cardPost && <LinkCard choice={c.linkCard} firstPostLink={firstPostLink} links={links} onChange={(linkCard) => edit((s) => ({ ...s, linkCard }))} />}
            </Fragment>
          ))}
          <button type="button" onClick={() => edit((s) => ({ ...s, posts: [...s.posts, blankPost()] }))}>Add post to thread</button>

          <div className="panel" style={{ marginTop: 16 }}>
            <div className="row">
              <button type="button" className="primary" disabled={!canSend} onClick={() => (issues.some((x) => x.kind === 'public-media') ? setConfirming(true) : void publishNow())} data-action="publish" title="Ctrl+Enter asks first">Publish now</button>
              <span className="muted small">or</span>
              <input type="datetime-local" aria-label="Schedule time" aria-describedby="tz" value={when_} onChange={(e) => { whenTouched.current = true; setWhen(e.target.value); }} />
              <button type="button" disabled={!canSend} onClick={() => void scheduleIt()} data-action="schedule">Schedule</button>
              <button type="button" disabled={!canSend} onClick={() => void queueIt()} data-action="queue" title="The next free slot of the social set">Add to queue</button>
            </div>
            <label className="small row" style={{ gap: 6, marginTop: 8 }}><input type="checkbox" checked={!!perNetwork} onChange={(e) => setPerNetwork(e.target.checked ? {} : undefined)} data-per-network-toggle /> A different time per network</label>
            {perNetwork && <PerNetworkTimes targets={targets} times={perNetwork} fallback={when_} onChange={(id, v) => setPerNetwork((p) => ({ ...p, [id]: v }))} />}
            <label className="small row" style={{ gap: 6, marginTop: 8 }}><input type="checkbox" checked={jitter} onChange={(e) => setJitter(e.target.checked)} /> Spread each account's post by up to ±3 min (jitter)</label>
            <p className="muted small" id="tz" style={{ margin: '8px 0 0' }}>Times are in {setZone}.<DstNote zone={setZone} value={when_} /> Ctrl+Enter asks to publish, Ctrl+S saves, Ctrl+N starts a new draft; <button type="button" className="linklike" onClick={showShortcuts} data-action="shortcuts">? all shortcuts</button></p>
            {tooLong && <p className="error small" role="alert">Some posts do not fit a network; see the previews.</p>}
            {!targets.length && accounts.data && <p className="muted small">Pick at least one account to publish or schedule.</p>}
            {progress && <SendProgress progress={progress} accounts={accounts.data} />}
            <FireTimes schedules={schedules.data ?? []} requested={requested} />
          </div>
        </section>

        <div className="compose-side">
          <Rules previews={previews} posts={c.posts} issues={issues} onSplitThread={splitThread} onSplitMedia={withThreads.length ? splitImages : undefined} />
          <Previews previews={previews} overrides={c.overrides} setOverride={(platform, text) => edit((s) => ({ ...s, overrides: { ...s.overrides, [platform]: text } }))} />
        </div>
      </div>
      {confirming && <ConfirmPublish targets={targets} issues={issues} postsOf={(pl) => previews.find((x) => x.platform === pl)?.posts.length ?? 0} onPublish={(ids) => void publishNow(ids)} onClose={() => setConfirming(false)} />}
    </Page>
  );
}
