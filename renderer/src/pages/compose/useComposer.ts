/**
 * The composer's state and actions: load a draft (or restore unsaved work), keep every change in
 * Drafts (saved within a second, one request), start a new draft (the last stays in Drafts, with
 * Undo), publish, schedule and queue. The page draws what this holds.
 *
 * Work is never only in the window: each change goes to localStorage when typing pauses (a crash
 * loses a second at most) and to the server shortly after; a save reads the latest composition, and saves run
 * one at a time, so a new draft is created once.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { PLATFORMS, type Platform } from '../../../../text/index';
import { publishSummaryText } from '../../../../text/status-text';
import { client } from '../../api';
import { offerUndo } from '../../components/undo';
import { useLoad } from '../../hooks';
import { navigate } from '../../router';
import { pickTargets } from './AccountPicker';
import { humanError } from './errors';
import { useNetworkFacts } from './facts';
import { followProgress, targetStates } from './follow';
import { copyDelay, draftBody, isBlank, keepCopy, openDraft, unsavedCopy, whyUnsaveable } from './drafts-io';
import { mediaSizes, withSizes } from './media-sizes';
import { blank, newKey, slot, UNSAVED, zone, type Composition, type Progress, type Template } from './model';
import { formatLocal, instantIn, useTimes } from './Timing';

/** How long the composer waits after the last change before saving it to Drafts. */
export const AUTOSAVE_MS = 500;
/** What happened last, shown beside the send buttons (in view) with what can be done next. */
export interface Outcome {
  kind: 'scheduled' | 'queued' | 'published';
  text: string;
}

type Snap = { c: Composition; targets: readonly { uuid: string }[]; setAccounts: readonly { uuid: string }[] };
const unsaveable = (s: Snap) => whyUnsaveable(draftBody(s.c, s.targets, s.setAccounts));
const inAnHour = (z: string) => formatLocal(z, Date.now() + 60 * 60_000).local;

export function useComposer(draftParam: string | undefined, newParam: string | null) {
  const [c, setC] = useState<Composition>(blank);
  const [dirty, setDirty] = useState(false);
  const [notice, setNotice] = useState<string>();
  const [outcome, setOutcome] = useState<Outcome>();
  const [progress, setProgress] = useState<Progress>();
  const [requested, setRequested] = useState<number>();
  const [when_, setWhenValue] = useState('');
  const [perNetwork, setPerNetwork] = useState<Record<string, string>>();
  const [jitter, setJitter] = useState(false); // posts go at the time or slot asked for unless jitter is asked for
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const sets = useLoad(() => client.listSocialSets().then((r) => r.socialSets));
  const accounts = useLoad(() => client.listAccounts().then((r) => r.accounts));
  const templates = useLoad(() => client.listTemplates().then((r) => r.templates as Template[]));
  const settings = useLoad(() => client.settings().then((r) => r.settings));
  const schedules = useLoad(
    () =>
      c.draftId
        ? client.listSchedules().then((r) => r.schedules.filter((s) => s.draftId === c.draftId))
        : Promise.resolve([]),
    [c.draftId],
  );
  // The month's credits and X spend against what is scheduled, read again after each send.
  const credits = useLoad(() => client.credits(), [schedules.data]);

  const defaultSet = sets.data?.find((s) => s.isDefault) ?? sets.data?.[0];
  const set = sets.data?.find((s) => s.id === c.socialSetId) ?? defaultSet;
  const setAccounts = useMemo(
    () =>
      (set?.accounts ?? []).map(
        (a) =>
          accounts.data?.find((x) => x.uuid === a.accountId) ?? {
            uuid: a.accountId,
            platform: a.platform,
            username: a.username,
            status: 'active' as const,
          },
      ),
    [set, accounts.data],
  );
  // Accounts that cannot post are left out (AccountPicker says why, with a Reconnect link).
  const targets = useMemo(() => pickTargets(setAccounts, c.selectedAccountIds), [setAccounts, c.selectedAccountIds]);
  const platformKey = [...new Set(targets.map((a) => a.platform))].sort().join();
  const platforms = useMemo(() => {
    const ps = platformKey ? platformKey.split(',') : ['microblog'];
    return PLATFORMS.filter((p) => ps.includes(p));
  }, [platformKey]);
  const facts = useNetworkFacts(platforms, targets);
  const times = useTimes();
  const setZone = set?.timeZone ?? times.userZone ?? zone(); // no set: the user's zone

  // The latest of everything, for saves and callbacks that outlive the render that made them.
  const now = useRef({ c, dirty, targets, setAccounts, setZone });
  now.current = { c, dirty, targets, setAccounts, setZone };
  const revision = useRef(0);
  const whenTouched = useRef(false);

  /** Every change goes through here: it marks the work unsaved and clears an error it may fix. */
  const edit = useCallback((fn: (c: Composition) => Composition) => {
    revision.current += 1;
    setC(fn);
    setDirty(true);
    setError(undefined);
  }, []);

  const run = useCallback(async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await fn();
    } catch (err) {
      setError(humanError(err, now.current.targets));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);

  // ---- saving --------------------------------------------------------------------------------
  const saving = useRef<Promise<unknown>>(Promise.resolve());
  /** The draft being edited: replaced when another is opened or a new one started. */
  const session = useRef<{ draftId?: string; savedRevision?: number }>({});
  /**
   * Saves the composition as it is now in one request and answers the draft's id. Saves run one
   * at a time and take the id an earlier save got, so a new draft is created once; one that
   * finishes after another draft was opened changes nothing on the page.
   */
  const save = useCallback((snap = now.current, ses = session.current): Promise<string> => {
    const rev = revision.current;
    const next = saving.current
      .catch(() => undefined)
      .then(async () => {
        const { c: s, targets: ts, setAccounts: all } = snap;
        if (!s.posts.some((p) => p.text.trim() || p.media.length)) throw new Error('Write something first.');
        const known = ses.draftId ?? s.draftId;
        // Saved already with nothing changed since (an autosave due as Publish saves): no request,
        // which could also reach a draft that is being published.
        if (known && ses.savedRevision === rev) return known;
        const body = draftBody(s, ts, all);
        const { draft } = known ? await client.updateDraft(known, body) : await client.createDraft(body);
        ses.draftId = draft.id;
        ses.savedRevision = rev;
        if (ses !== session.current) {
          // The page moved on (another draft, or away): only the copy of what was saved goes.
          const copy = slot(known);
          if (localStorage.getItem(copy) === JSON.stringify(s)) localStorage.removeItem(copy);
          return draft.id;
        }
        if (!known) {
          localStorage.removeItem(UNSAVED);
          window.history.replaceState(null, '', `#/compose?draft=${draft.id}`);
        }
        setC((cur) => ({ ...cur, draftId: draft.id, status: draft.status }));
        if (revision.current === rev) {
          localStorage.removeItem(slot(draft.id));
          setDirty(false);
        }
        return draft.id;
      });
    saving.current = next;
    return next;
  }, []);

  // Leaving the page: what is not saved yet is copied and goes to Drafts now; nothing on the
  // next page follows that save.
  useEffect(
    () => () => {
      const snap = now.current;
      const was = session.current;
      session.current = {};
      if (!snap.dirty) return;
      localStorage.setItem(slot(snap.c.draftId), JSON.stringify(snap.c));
      if (!unsaveable(snap)) save(snap, was).catch(() => undefined);
    },
    [save],
  );

  // Autosave: within a second of the last change, one request.
  useEffect(() => {
    if (!dirty || !c.posts.some((p) => p.text.trim() || p.media.length)) return;
    // This work's draft: New or another draft can take over before the page shows it (the timer may
    // fire in between); the work must not go there. Work over the server's limits is not sent on
    // every pause: the page says what to do (Save sends it).
    const ses = session.current;
    const timer = setTimeout(() => {
      const why = unsaveable(now.current);
      if (why) setError(`Not saved: ${why}.`);
      else save(now.current, ses).catch((err) => setError(`Not saved: ${humanError(err, now.current.targets)}`));
    }, AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [c, dirty, save]);

  // A copy in localStorage until the server has it (no beforeunload prompt: nothing is lost by
  // leaving, and inside Electron such a handler would silently stop the window from closing).
  useEffect(() => {
    if (!dirty || isBlank(c)) return;
    const write = () => keepCopy(now.current.c);
    const timer = setTimeout(write, copyDelay());
    window.addEventListener('pagehide', write);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('pagehide', write);
    };
  }, [c, dirty]);

  // ---- loading -------------------------------------------------------------------------------
  const resetSend = () => {
    setProgress(undefined);
    setNotice(undefined);
    setError(undefined);
    setOutcome(undefined);
    setRequested(undefined);
    setPerNetwork(undefined);
    // A new draft starts an hour from now, never at a time left over from the last one.
    whenTouched.current = false;
    setWhenValue(inAnHour(now.current.setZone));
  };

  useEffect(() => {
    resetSend();
    const before = now.current;
    const was = session.current;
    session.current = { draftId: draftParam };
    // New: the work so far is kept in Drafts (saved now if it was not yet), and Undo reopens it.
    if (newParam && before.c.posts.some((p) => p.text.trim() || p.media.length)) {
      const kept = (before.dirty ? save(before, was) : Promise.resolve(was.draftId ?? before.c.draftId ?? '')).catch(
        () => was.draftId ?? before.c.draftId ?? '',
      );
      void kept.then((id) => {
        if (!id) return;
        offerUndo('compose.new', 'Started a new draft; the last one is in Drafts.', () =>
          navigate('compose', { draft: id }),
        );
      });
    }
    const kept = newParam ? null : unsavedCopy(draftParam);
    if (kept) {
      revision.current += 1;
      setC(kept);
      setDirty(true);
      setNotice(draftParam ? 'Restored changes that were not saved.' : 'Restored unsaved work.');
      return;
    }
    if (!draftParam) {
      // `new` asks for a clean start once; a reload of this page should restore, not clear again.
      if (newParam) window.history.replaceState(null, '', '#/compose');
      localStorage.removeItem(UNSAVED);
      revision.current += 1;
      setC(blank());
      setDirty(false);
      return;
    }
    void run(async () => {
      const { draft, composition: loaded } = await openDraft(draftParam);
      revision.current += 1;
      setC(loaded);
      setRequested(draft.scheduledFor ? Date.parse(draft.scheduledFor) : undefined);
      setDirty(false);
      void mediaSizes(loaded.posts.flatMap((p) => p.media)).then((sizes) =>
        setC((cur) => (cur.draftId === draft.id ? withSizes(cur, sizes) : cur)),
      );
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draftParam, newParam]);

  // The default time (an hour from now) as the set's clock shows it, until the user picks one.
  useEffect(() => {
    if (!whenTouched.current) setWhenValue(inAnHour(setZone));
  }, [setZone]);
  const setWhen = (v: string) => {
    whenTouched.current = true;
    setWhenValue(v);
  };

  // ---- sending -------------------------------------------------------------------------------
  const following = useRef<AbortController>(undefined);
  useEffect(() => () => following.current?.abort(), []);
  const needTargets = () => {
    if (!now.current.targets.length) throw new Error('Connect an account and add it to a social set first.');
  };

  const publishNow = (accountIds = targets.map((a) => a.uuid)) =>
    run(async () => {
      needTargets();
      const id = await save();
      setNotice(undefined);
      setOutcome(undefined);
      const { jobId, warnings } = await client.publishAsync(id, { accountIds });
      following.current?.abort();
      const ac = new AbortController();
      following.current = ac;
      const last = await followProgress(jobId, id, ac, setProgress);
      void credits.reload();
      // Left the page, or another publish took over: no summary for this one.
      if (!last || last.summary.pending > 0) return;
      const { failed, completed } = last.summary;
      setC((s) => ({ ...s, status: failed === 0 ? 'published' : completed === 0 ? 'failed' : 'partially_published' }));
      const entries = targetStates(last);
      // Over X's spend cap set to warn: it went, and the notice says so.
      const text = [publishSummaryText(entries, times.at).text, ...(warnings ?? [])].join(' ');
      setOutcome({ kind: 'published', text });
    });

  const scheduleIt = () =>
    run(async () => {
      needTargets();
      // Entered in the set's zone; with per-network times each account has its own.
      const timeOf = (accountId?: string) => instantIn(setZone, (accountId && perNetwork?.[accountId]) || when_);
      const all = perNetwork ? targets.map((a) => timeOf(a.uuid)) : [timeOf()];
      if (all.some((t) => Number.isNaN(t) || t <= Date.now())) throw new Error('Pick a time in the future.');
      const at = Math.min(...all);
      const id = await save();
      const r = await client.schedule({
        draftId: id,
        scheduledFor: perNetwork ? undefined : new Date(at).toISOString(),
        applyJitter: jitter,
        targetAccounts: targets.map((a) => ({
          accountId: a.uuid,
          platform: a.platform as Platform,
          ...(perNetwork ? { scheduledFor: new Date(timeOf(a.uuid)).toISOString() } : {}),
        })),
      });
      setRequested(at);
      setC((s) => ({ ...s, status: 'scheduled' }));
      setOutcome({ kind: 'scheduled', text: [r.message, ...(r.warnings ?? [])].join(' ') });
      await schedules.reload();
    });

  const queueIt = () =>
    run(async () => {
      needTargets();
      const id = await save();
      const r = await client.addToQueue({ draftId: id, socialSetId: set?.id, applyJitter: jitter });
      setRequested(Date.parse(r.slot.at));
      setC((s) => ({ ...s, status: 'scheduled' }));
      setOutcome({
        kind: 'queued',
        text: [`Queued for ${times.scheduled(r.slot.at, r.slot.timeZone)}.`, ...(r.warnings ?? [])].join(' '),
      });
      await schedules.reload();
    });

  const saveNow = () =>
    run(async () => {
      await save();
      setNotice('Saved.');
    });
  const startNew = () => {
    const why = now.current.dirty ? unsaveable(now.current) : undefined;
    if (why) return setError(`Not saved: ${why} before starting a new draft.`); // else it would be lost
    navigate('compose', { new: String(Date.now()) });
  };

  return {
    c,
    edit,
    dirty,
    notice,
    setNotice,
    outcome,
    progress,
    requested,
    busy,
    error,
    setError,
    run,
    sets,
    accounts,
    templates,
    settings,
    schedules,
    credits,
    defaultSet,
    set,
    setAccounts,
    targets,
    platforms,
    facts,
    setZone,
    when: when_,
    setWhen,
    perNetwork,
    setPerNetwork,
    jitter,
    setJitter,
    save,
    saveNow,
    publishNow,
    scheduleIt,
    queueIt,
    startNew,
  };
}

export type Composer = ReturnType<typeof useComposer>;
