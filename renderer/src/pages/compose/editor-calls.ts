/**
 * What the post editors can do to the thread: type, paste a thread, move, split, remove (with
 * Undo), add and remove media (with Undo), and the rules panel's one-click splits. The callbacks
 * are stable (the memoised editors are not redrawn for them) and act on the latest state.
 */
import { useMemo, useRef } from 'react';
import { splitThreadText, type Platform } from '../../../../text/index';
import { client, message } from '../../api';
import { offerUndo } from '../../components/undo';
import { blankPost, swapTemplate, type Composition, type MediaRef, type Post } from './model';
import { imagesPerPost, splitMedia, splitOverride, splitPosts, splitText, threaded } from './thread-ops';
import type { Composer } from './useComposer';

const replaceAt = (posts: Post[], i: number, texts: string[]): Post[] => [
  ...posts.slice(0, i),
  { ...posts[i], text: texts[0] },
  ...texts.slice(1).map((t) => blankPost(t)),
  ...posts.slice(i + 1),
];

export function useEditorCalls(k: Composer, withThreads: Platform[]) {
  const latest = useRef({ k, withThreads });
  latest.current = { k, withThreads };

  return useMemo(() => {
    const edit = (fn: (c: Composition) => Composition) => latest.current.k.edit(fn);
    const setPost = (i: number, p: Partial<Post>) =>
      edit((s) => ({ ...s, posts: s.posts.map((q, j) => (j === i ? { ...q, ...p } : q)) }));

    async function addFiles(i: number, files: File[]) {
      if (!files.length) return;
      const { k: cur } = latest.current;
      await cur.run(async () => {
        // The most any selected network takes in one post; more than one takes is offered a split.
        const most = Math.max(4, ...cur.platforms.map((pl) => imagesPerPost([pl], cur.facts.opts)));
        const room = most - cur.c.posts[i].media.length;
        if (files.length > room) throw new Error(`A post holds at most ${most} media items here; ${room} more fit.`);
        cur.setNotice(`Uploading ${files.length} file${files.length === 1 ? '' : 's'}…`);
        const added: MediaRef[] = [];
        // The upload takes at most 4 files a request.
        for (let n = 0; n < files.length; n += 4) {
          const batch = files.slice(n, n + 4);
          const r = await client.uploadMedia(batch.map((f) => ({ name: f.name, data: f })));
          added.push(
            ...r.data.uploads.map((u, j) => ({
              mediaId: u.mediaId,
              altText: '',
              type: u.type,
              url: u.url,
              size: batch[j]?.size,
              title: u.title,
              durationMs: u.durationMs,
              pages: u.pages,
            })),
          );
        }
        edit((s) => ({ ...s, posts: s.posts.map((q, j) => (j === i ? { ...q, media: [...q.media, ...added] } : q)) }));
        cur.setNotice(undefined);
      });
    }

    /** Pasting text with a line holding only --- makes one post per part. */
    function onPaste(i: number, e: React.ClipboardEvent<HTMLTextAreaElement>) {
      const files = [...e.clipboardData.files];
      if (files.length) {
        e.preventDefault();
        void addFiles(i, files);
        return;
      }
      const parts = splitThreadText(e.clipboardData.getData('text/plain'));
      if (parts.length < 2) return;
      e.preventDefault();
      const el = e.currentTarget;
      const before = el.value.slice(0, el.selectionStart);
      const after = el.value.slice(el.selectionEnd);
      edit((s) => ({
        ...s,
        posts: replaceAt(s.posts, i, [before + parts[0], ...parts.slice(1, -1), parts[parts.length - 1] + after]),
      }));
    }

    function onSplit(i: number) {
      const { k: cur, withThreads: wt } = latest.current;
      const parts = splitText(cur.c.posts[i].text, wt.length ? wt : cur.platforms, cur.facts.opts);
      if (parts.length > 1) edit((s) => ({ ...s, posts: replaceAt(s.posts, i, parts) }));
    }

    /** Takes a post out now and offers Undo, which puts it back where it was. */
    function onRemove(i: number) {
      const gone = latest.current.k.c.posts[i];
      if (!gone) return;
      edit((s) => ({ ...s, posts: s.posts.filter((p) => p.key !== gone.key) }));
      offerUndo(`compose.remove.post-${gone.key}`, `Removed post ${i + 1}.`, () =>
        edit((s) => ({
          ...s,
          posts: s.posts.some((p) => p.key === gone.key)
            ? s.posts
            : [...s.posts.slice(0, i), gone, ...s.posts.slice(i)],
        })),
      );
    }

    /** Takes a media item off a post now and offers Undo, which puts it back on that post. */
    function onRemoveMedia(i: number, n: number) {
      const post = latest.current.k.c.posts[i];
      const gone = post?.media[n];
      if (!gone) return;
      const on = (fn: (m: MediaRef[]) => MediaRef[]) =>
        edit((s) => ({ ...s, posts: s.posts.map((q) => (q.key === post.key ? { ...q, media: fn(q.media) } : q)) }));
      on((m) => m.filter((x) => x.mediaId !== gone.mediaId));
      offerUndo(`compose.remove.media-${gone.mediaId}`, `Removed media ${n + 1} of post ${i + 1}.`, () =>
        on((m) => (m.some((x) => x.mediaId === gone.mediaId) ? m : [...m.slice(0, n), gone, ...m.slice(n)])),
      );
    }

    return {
      onText: (i: number, text: string) => setPost(i, { text }),
      onPaste,
      onMove: (i: number, by: -1 | 1) =>
        edit((s) => {
          const a = [...s.posts];
          [a[i + by], a[i]] = [a[i], a[i + by]];
          return { ...s, posts: a };
        }),
      onSplit,
      onRemove,
      onFiles: (i: number, files: File[]) => void addFiles(i, files),
      onMedia: (i: number, media: MediaRef[]) => setPost(i, { media }),
      onRemoveMedia,
      onAltSaved: (m: MediaRef, alt: string) =>
        void client.setMediaAltText(m.mediaId, alt).catch((err) => latest.current.k.setError(message(err))),
      addPost: () => edit((s) => ({ ...s, posts: [...s.posts, blankPost()] })),
      /** The rules panel's "Split into a thread": the network's own text if it has one, else the thread. */
      splitThread: (platform?: Platform) => {
        const { k: cur } = latest.current;
        const opts = cur.facts.opts;
        if (platform && cur.c.overrides[platform]?.trim()) {
          edit((s) => ({
            ...s,
            overrides: { ...s.overrides, [platform]: splitOverride(s.overrides[platform] ?? '', platform, opts) },
          }));
        } else {
          edit((s) => ({
            ...s,
            posts: splitPosts(
              s.posts,
              threaded(
                cur.platforms.filter((pl) => !s.overrides[pl]?.trim()),
                opts,
              ),
              opts,
            ),
          }));
        }
      },
      splitImages: () =>
        edit((s) => ({
          ...s,
          posts: splitMedia(s.posts, imagesPerPost(latest.current.withThreads, latest.current.k.facts.opts)),
        })),
      pickTemplate: (id: string) =>
        edit((s) => {
          const all = latest.current.k.templates.data ?? [];
          return {
            ...s,
            templateId: id,
            posts: swapTemplate(
              s.posts,
              all.find((t) => t.uuid === s.templateId),
              all.find((t) => t.uuid === id),
            ),
          };
        }),
      setOverride: (platform: Platform, text: string) =>
        edit((s) => ({ ...s, overrides: { ...s.overrides, [platform]: text } })),
    };
  }, []);
}
