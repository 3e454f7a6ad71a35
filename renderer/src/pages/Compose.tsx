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
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  NETWORK_LABELS, PLATFORMS, plainToHtml, postsForNetwork, splitForPlatform, splitThreadText, validatePost,
  type Platform,
} from '../../../text/index';
import { publishSummaryText } from '../../../text/status-text';
import { client, message } from '../api';
import { navigate } from '../router';
import { ErrorText, networkName, Page, StatusChip, when } from '../components/ui';
import { useAction, useLoad } from '../hooks';
import { blank, blankPost, localInput, newKey, slot, swapTemplate, UNSAVED, zone, type Composition, type Post, type Progress, type Template } from './compose/model';
import { Previews } from './compose/Previews';
import { FireTimes, SendProgress } from './compose/SendProgress';
import { formatLocal, instantIn, PerNetworkTimes } from './compose/Timing';
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
  const { busy, error, run, setError } = useAction();

  const sets = useLoad(() => client.listSocialSets().then((r) => r.socialSets));
  const accounts = useLoad(() => client.listAccounts().then((r) => r.accounts));
  const templates = useLoad(() => client.listTemplates().then((r) => r.templates as Template[]));
  const schedules = useLoad(() => (c.draftId ? client.listSchedules().then((r) => r.schedules.filter((s) => s.draftId === c.draftId)) : Promise.resolve([])), [c.draftId]);

  // Load a draft, or restore unsaved work for a new one.
  useEffect(() => {
    setProgress(undefined);
    setNotice(undefined);
    setError(undefined);
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
      setC({
        draftId: draft.id,
        title: draft.title,
        posts: draft.tweets.map((t) => ({ key: newKey(), text: t.plainText, media: t.media.filter((m) => m.type).map((m) => ({ mediaId: m.mediaId, altText: m.altText ?? '', type: m.type!, url: `${client.baseUrl}/media/${m.mediaId}` })) })),
        socialSetId: draft.socialSetId ?? '',
        selectedAccountIds: draft.selectedAccountIds,
        templateId: draft.templateId ?? '',
        savedTemplateId: draft.templateId ?? '',
        overrides: Object.fromEntries(platforms.map((p) => [p.platform, p.content])),
        status: draft.status,
      });
      setRequested(draft.scheduledFor ? Date.parse(draft.scheduledFor) : undefined);
      setDirty(false);
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
  const targets = c.selectedAccountIds.length ? setAccounts.filter((a) => c.selectedAccountIds.includes(a.uuid)) : setAccounts;
  const platforms = useMemo(() => {
    const ps = [...new Set(targets.map((a) => a.platform as Platform))];
    return ps.length ? PLATFORMS.filter((p) => ps.includes(p)) : (['microblog'] as Platform[]);
  }, [targets]);

  const previews = platforms.map((platform) => {
    const posts = postsForNetwork(platform, c.posts.map((p) => ({ plainText: p.text, media: p.media })), c.overrides[platform]);
    const verdicts = posts.map((p) => validatePost(platform, p.text, p.media.map((m) => m.type)));
    return { platform, posts, verdicts, valid: posts.length > 0 && verdicts.every((v) => v.valid) };
  });
  const hasContent = c.posts.some((p) => p.text.trim() || p.media.length);
  const allValid = hasContent && previews.every((p) => p.valid);
  const canSend = allValid && targets.length > 0 && !busy;

  async function save(): Promise<string> {
    if (!hasContent) throw new Error('Write something first.');
    const body = {
      title: c.title.trim() || c.posts.find((p) => p.text.trim())?.text.trim().split('\n')[0].slice(0, 80) || 'Untitled',
      tweets: c.posts.map((p, position) => ({ content: plainToHtml(p.text), position, media: p.media.map((m) => ({ mediaId: m.mediaId, altText: m.altText || undefined })) })),
      socialSetId: c.socialSetId || undefined,
      selectedAccountIds: c.selectedAccountIds,
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
    setNotice(publishSummaryText(p.entries.map((e) => ({ status: e.status, network: networkName(e.platform), reason: e.error, errorCode: e.errorCode })), when).text);
  }

  const publishNow = () => run(async () => {
    if (!targets.length) throw new Error('Connect an account and add it to a social set first.');
    const id = await save();
    setNotice(undefined);
    const { jobId, warnings } = await client.publishAsync(id, { accountIds: targets.map((a) => a.uuid) });
    await follow(jobId, id);
    // Over X's spend cap set to warn: it went, and the notice says so.
    if (warnings?.length) setNotice((n) => [n, ...warnings].filter(Boolean).join(' '));
  });

  const setZone = set?.timeZone ?? zone();
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
    setNotice([`Queued for ${r.slot.local.replace('T', ' ')} (${r.slot.timeZone}).`, ...(r.warnings ?? [])].join(' '));
    await schedules.reload();
  });

  // Shortcuts: Ctrl+Enter publishes now, Ctrl+S saves (Ctrl+N, a new draft, is app-wide).
  const keys = useRef({ publishNow, save: () => run(async () => { await save(); setNotice('Saved.'); }), canSend });
  keys.current = { publishNow, save: () => run(async () => { await save(); setNotice('Saved.'); }), canSend };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      if (e.key === 'Enter') { e.preventDefault(); if (keys.current.canSend) void keys.current.publishNow(); }
      else if (e.key.toLowerCase() === 's') { e.preventDefault(); void keys.current.save(); }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  async function addFiles(i: number, files: File[]) {
    if (!files.length) return;
    await run(async () => {
      const room = 4 - c.posts[i].media.length;
      if (files.length > room) throw new Error(`A post holds at most 4 media items; ${room} more fit here.`);
      setNotice(`Uploading ${files.length} file${files.length === 1 ? '' : 's'}…`);
      const r = await client.uploadMedia(files.map((f) => ({ name: f.name, data: f })));
      const added = r.data.uploads.map((u) => ({ mediaId: u.mediaId, altText: '', type: u.type, url: u.url }));
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

  function splitPost(i: number) {
    const strict = platforms.reduce((a, p) => (validatePost(p, 'x').limit < validatePost(a, 'x').limit ? p : a), platforms[0]);
    const parts = splitForPlatform(c.posts[i].text, strict);
    if (parts.length < 2) return;
    edit((s) => ({ ...s, posts: [...s.posts.slice(0, i), { ...s.posts[i], text: parts[0] }, ...parts.slice(1).map((t) => blankPost(t)), ...s.posts.slice(i + 1)] }));
  }

  const pickTemplate = (id: string) => edit((s) => {
    const all = templates.data ?? [];
    const from = all.find((t) => t.uuid === s.templateId);
    const to = all.find((t) => t.uuid === id);
    return { ...s, templateId: id, posts: swapTemplate(s.posts, from, to) };
  });

  const threadPlatforms = platforms.filter((pl) => !c.overrides[pl]?.trim());
  const tooLong = c.posts.some((p) => threadPlatforms.some((pl) => validatePost(pl, p.text).count > validatePost(pl, p.text).limit))
    || previews.some((p) => p.verdicts.some((v) => !v.valid && v.reason !== 'the post is empty'));
  // The month's credits against what is scheduled, so a shortfall shows before posts fail.
  const credits = useLoad(() => client.credits(), [schedules.data]);
  const loadError = sets.error ?? accounts.error ?? templates.error;
  return (
    <Page title={c.draftId ? 'Edit draft' : 'New draft'} actions={
      <div className="row">
        {c.status && c.status !== 'draft' && <StatusChip status={c.status} />}
        {dirty && <span className="muted small" data-unsaved>Unsaved</span>}
        <button type="button" onClick={() => navigate('compose', { new: String(Date.now()) })} title="Ctrl+N">New</button>
        <button type="button" disabled={busy} onClick={() => void keys.current.save()} title="Ctrl+S">Save draft</button>
      </div>}>
      <ErrorText error={loadError ?? error} />
      {notice && <p className="muted" role="status" data-notice>{notice}</p>}
      {credits.data?.warning && <p className="error" role="alert" data-credits-warning>{credits.data.warning}</p>}
      <SpendMeter spend={credits.data?.xSpend} balance={credits.data?.balance} />
      <div className="compose-grid">
        <section aria-label="Editor">
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
            <div className="row" style={{ marginTop: 10 }} role="group" aria-label="Accounts">
              {setAccounts.length === 0 && <span className="muted small">No accounts in this set. <a href="#/accounts">Connect one</a>.</span>}
              {setAccounts.map((a) => (
                <label key={a.uuid} className="chip" data-account={a.uuid}>
                  <input type="checkbox" checked={targets.some((t) => t.uuid === a.uuid)} onChange={(e) => edit((s) => {
                    const current = s.selectedAccountIds.length ? s.selectedAccountIds : setAccounts.map((x) => x.uuid);
                    const next = e.target.checked ? [...new Set([...current, a.uuid])] : current.filter((x) => x !== a.uuid);
                    return { ...s, selectedAccountIds: next.length === setAccounts.length ? [] : next };
                  })} /> {networkName(a.platform)} @{a.username}{'health' in a && a.health.state !== 'ok' ? <span className={a.health.state === 'expired' || a.health.state === 'revoked' ? 'error small' : 'warn-text small'} data-cannot-post={a.health.state} title={a.health.message}> ({a.health.state === 'expired' || a.health.state === 'revoked' ? 'cannot post: reconnect' : a.health.state.replace('_', ' ')})</span> : a.status === 'needs_reauth' ? ' (reconnect)' : ''}
                </label>
              ))}
            </div>
          </div>

          {c.posts.map((p, i) => {
            const verdicts = threadPlatforms.map((pl) => ({ pl, v: validatePost(pl, p.text, p.media.map((m) => m.type)) }));
            const over = verdicts.some((x) => x.v.count > x.v.limit);
            return (
              <div key={p.key} className="post" data-post={i}>
                <div className="post-head">
                  <b className="small">Post {i + 1}</b>
                  <div className="row">
                    <button type="button" disabled={i === 0} aria-label={`Move post ${i + 1} up`} onClick={() => edit((s) => { const a = [...s.posts]; [a[i - 1], a[i]] = [a[i], a[i - 1]]; return { ...s, posts: a }; })}>↑</button>
                    <button type="button" disabled={i === c.posts.length - 1} aria-label={`Move post ${i + 1} down`} onClick={() => edit((s) => { const a = [...s.posts]; [a[i + 1], a[i]] = [a[i], a[i + 1]]; return { ...s, posts: a }; })}>↓</button>
                    {over && <button type="button" onClick={() => splitPost(i)} aria-label={`Split post ${i + 1} into a thread`}>Split</button>}
                    <button type="button" className="danger" disabled={c.posts.length === 1} aria-label={`Remove post ${i + 1}`} onClick={() => edit((s) => ({ ...s, posts: s.posts.filter((_, j) => j !== i) }))}>Remove</button>
                  </div>
                </div>
                <textarea
                  aria-label={`Post ${i + 1}`} rows={4} value={p.text}
                  placeholder={i === 0 ? 'What do you want to say? Paste text with --- lines to make a thread.' : 'Continue the thread…'}
                  onChange={(e) => setPost(i, { text: e.target.value })}
                  onPaste={(e) => pasteThread(i, e)}
                />
                <div className="counters" aria-label={`Post ${i + 1} counts`}>
                  {verdicts.map(({ pl, v }) => {
                    const bad = v.count > v.limit || (!v.valid && v.reason !== 'the post is empty');
                    return <span key={pl} className={`counter${bad ? ' over' : ''}`} data-counter={pl} data-valid={String(!bad)} title={v.reason}>{NETWORK_LABELS[pl]} {v.count}/{v.limit}</span>;
                  })}
                </div>
                <div
                  className={`dropzone${dragOver === i ? ' over' : ''}`} data-dropzone={i}
                  onDragOver={(e) => { e.preventDefault(); setDragOver(i); }} onDragLeave={() => setDragOver(undefined)}
                  onDrop={(e) => { e.preventDefault(); setDragOver(undefined); void addFiles(i, [...e.dataTransfer.files]); }}
                >
                  Drop images or a video here, or <label className="link">choose files<input type="file" multiple className="visually-hidden" accept="image/png,image/jpeg,image/webp,image/gif,video/mp4,video/quicktime" aria-label={`Add media to post ${i + 1}`} onChange={(e) => { void addFiles(i, [...(e.target.files ?? [])]); e.target.value = ''; }} /></label>
                </div>
                {p.media.length > 0 && (
                  <div className="thumbs">
                    {p.media.map((m, k) => (
                      <div className="thumb" key={m.mediaId} data-media={m.mediaId}>
                        {m.type === 'video' ? <video src={m.url} muted className="thumb-media" /> : <img src={m.url} alt={m.altText || 'attached media'} className="thumb-media" />}
                        <input aria-label={`Alt text for media ${k + 1} of post ${i + 1}`} placeholder="Alt text" maxLength={1500} value={m.altText} onChange={(e) => setPost(i, { media: p.media.map((x, j) => (j === k ? { ...x, altText: e.target.value } : x)) })}
                          onBlur={(e) => void client.setMediaAltText(m.mediaId, e.target.value).catch((err) => setError(message(err)))} />
                        <button type="button" className="small" aria-label={`Remove media ${k + 1} from post ${i + 1}`} onClick={() => setPost(i, { media: p.media.filter((_, j) => j !== k) })}>Remove</button>
                      </div>
                    ))}
                  </div>
                )}
              </div>
            );
          })}
          <button type="button" onClick={() => edit((s) => ({ ...s, posts: [...s.posts, blankPost()] }))}>Add post to thread</button>

          <div className="panel" style={{ marginTop: 16 }}>
            <div className="row">
              <button type="button" className="primary" disabled={!canSend} onClick={() => void publishNow()} data-action="publish" title="Ctrl+Enter">Publish now</button>
              <span className="muted small">or</span>
              <input type="datetime-local" aria-label="Schedule time" aria-describedby="tz" value={when_} onChange={(e) => { whenTouched.current = true; setWhen(e.target.value); }} />
              <button type="button" disabled={!canSend} onClick={() => void scheduleIt()} data-action="schedule">Schedule</button>
              <button type="button" disabled={!canSend} onClick={() => void queueIt()} data-action="queue" title="The next free slot of the social set">Add to queue</button>
            </div>
            <label className="small row" style={{ gap: 6, marginTop: 8 }}><input type="checkbox" checked={!!perNetwork} onChange={(e) => setPerNetwork(e.target.checked ? {} : undefined)} data-per-network-toggle /> A different time per network</label>
            {perNetwork && <PerNetworkTimes targets={targets} times={perNetwork} fallback={when_} onChange={(id, v) => setPerNetwork((p) => ({ ...p, [id]: v }))} />}
            <label className="small row" style={{ gap: 6, marginTop: 8 }}><input type="checkbox" checked={jitter} onChange={(e) => setJitter(e.target.checked)} /> Spread each account's post by up to ±3 min (jitter)</label>
            <p className="muted small" id="tz" style={{ margin: '8px 0 0' }}>Times are in {setZone}. Ctrl+Enter publishes now, Ctrl+S saves, Ctrl+N starts a new draft.</p>
            {tooLong && <p className="error small" role="alert">Some posts do not fit a network; see the previews.</p>}
            {!targets.length && accounts.data && <p className="muted small">Pick at least one account to publish or schedule.</p>}
            {progress && <SendProgress progress={progress} accounts={accounts.data} />}
            <FireTimes schedules={schedules.data ?? []} requested={requested} />
          </div>
        </section>

        <Previews previews={previews} overrides={c.overrides} setOverride={(platform, text) => edit((s) => ({ ...s, overrides: { ...s.overrides, [platform]: text } }))} />
      </div>
    </Page>
  );
}
