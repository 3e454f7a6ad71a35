/** One post of the thread in the editor: its text, per-network counters, media with alt text. */
import { memo, useLayoutEffect, useRef } from 'react';
import { ALT_TEXT_MAX, NETWORK_LABELS, type Platform, type Verdict } from '../../../../text/index';
import type { MediaRef, Post } from './model';
import { AltTextCounter } from './AltTextCounter';
import { MediaKindInfo } from './MediaKindInfo';

export interface PostEditorProps {
  i: number;
  post: Post;
  count: number;
  verdicts: { pl: Platform; v: Verdict }[];
  dragOver: boolean;
  onText: (i: number, text: string) => void;
  onPaste: (i: number, e: React.ClipboardEvent<HTMLTextAreaElement>) => void;
  onMove: (i: number, by: -1 | 1) => void;
  onSplit: (i: number) => void;
  onRemove: (i: number) => void;
  onFiles: (i: number, files: File[]) => void;
  onMedia: (i: number, media: MediaRef[]) => void;
  onRemoveMedia: (i: number, k: number) => void;
  onAltSaved: (m: MediaRef, alt: string) => void;
  setDragOver: (i: number | undefined) => void;
}

function PostEditorView({
  i,
  post: p,
  count,
  verdicts,
  dragOver,
  onText,
  onPaste,
  onMove,
  onSplit,
  onRemove,
  onFiles,
  onMedia,
  onRemoveMedia,
  onAltSaved,
  setDragOver,
}: PostEditorProps) {
  const over = verdicts.some((x) => x.v.count > x.v.limit);
  // The text box is left to the browser and given the text only when it differs (a split, a
  // template, another draft), here, also when it is first drawn. Not as a controlled value, nor
  // as a default value: after every input event React writes either into the element's default
  // value, which rebuilds its DOM text (10,000 characters' worth on every key).
  const box = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    if (box.current && box.current.value !== p.text) box.current.value = p.text;
  }, [p.text]);
  return (
    <div className="post" data-post={i}>
      <div className="post-head">
        <b className="small">Post {i + 1}</b>
        <div className="row">
          <button type="button" disabled={i === 0} aria-label={`Move post ${i + 1} up`} onClick={() => onMove(i, -1)}>
            ↑
          </button>
          <button
            type="button"
            disabled={i === count - 1}
            aria-label={`Move post ${i + 1} down`}
            onClick={() => onMove(i, 1)}
          >
            ↓
          </button>
          {over && (
            <button type="button" onClick={() => onSplit(i)} aria-label={`Split post ${i + 1} into a thread`}>
              Split
            </button>
          )}
          <button
            type="button"
            className="danger"
            disabled={count === 1}
            aria-label={`Remove post ${i + 1}`}
            onClick={() => onRemove(i)}
          >
            Remove
          </button>
        </div>
      </div>
      <textarea
        aria-label={`Post ${i + 1}`}
        rows={4}
        ref={box}
        placeholder={
          i === 0 ? 'What do you want to say? Paste text with --- lines to make a thread.' : 'Continue the thread…'
        }
        onChange={(e) => onText(i, e.target.value)}
        onPaste={(e) => onPaste(i, e)}
      />
      <div className="counters" aria-label={`Post ${i + 1} counts`}>
        {verdicts.map(({ pl, v }) => {
          const bad = v.count > v.limit || (!v.valid && v.reason !== 'the post is empty');
          return (
            <span
              key={pl}
              className={`counter${bad ? ' over' : ''}`}
              data-counter={pl}
              data-valid={String(!bad)}
              title={v.reason}
            >
              {NETWORK_LABELS[pl]} {v.count}/{v.limit}
            </span>
          );
        })}
      </div>
      <div
        className={`dropzone${dragOver ? ' over' : ''}`}
        data-dropzone={i}
        onDragOver={(e) => {
          e.preventDefault();
          setDragOver(i);
        }}
        onDragLeave={() => setDragOver(undefined)}
        onDrop={(e) => {
          e.preventDefault();
          setDragOver(undefined);
          onFiles(i, [...e.dataTransfer.files]);
        }}
      >
        Drop images or a video here, or{' '}
        <label className="link">
          choose files
          <input
            type="file"
            multiple
            className="visually-hidden"
            accept="image/png,image/jpeg,image/webp,image/gif,video/mp4,video/quicktime,application/pdf"
            aria-label={`Add media to post ${i + 1}`}
            onChange={(e) => {
              onFiles(i, [...(e.target.files ?? [])]);
              e.target.value = '';
            }}
          />
        </label>
      </div>
      {p.media.length > 0 && (
        <div className="thumbs">
          {p.media.map((m, k) => (
            <div className="thumb" key={m.mediaId} data-media={m.mediaId}>
              {m.type === 'video' ? (
                <video src={m.url} muted className="thumb-media" />
              ) : m.type === 'document' ? (
                <div className="thumb-media thumb-doc">PDF</div>
              ) : (
                <img src={m.url} alt={m.altText || 'attached media'} className="thumb-media" />
              )}
              {/* Alt text is for images, GIFs and videos; a document has its title. */}
              {m.type !== 'document' && (
                <>
                  <input
                    aria-label={`Alt text for media ${k + 1} of post ${i + 1}`}
                    placeholder="Alt text"
                    maxLength={ALT_TEXT_MAX}
                    value={m.altText}
                    onChange={(e) =>
                      onMedia(
                        i,
                        p.media.map((x, j) => (j === k ? { ...x, altText: e.target.value } : x)),
                      )
                    }
                    onBlur={(e) => onAltSaved(m, e.target.value)}
                  />
                  <AltTextCounter
                    alt={m.altText}
                    platforms={verdicts.map((x) => x.pl)}
                    label={`media ${k + 1} of post ${i + 1}`}
                  />
                </>
              )}
              <MediaKindInfo
                m={m}
                label={`media ${k + 1} of post ${i + 1}`}
                platforms={verdicts.map((v) => v.pl)}
                onChange={(x) =>
                  onMedia(
                    i,
                    p.media.map((y, j) => (j === k ? x : y)),
                  )
                }
              />
              <button
                type="button"
                className="small"
                aria-label={`Remove media ${k + 1} from post ${i + 1}`}
                onClick={() => onRemoveMedia(i, k)}
              >
                Remove
              </button>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** Memoised: typing in one post redraws only that post (the callbacks are stable). */
export const PostEditor = memo(
  PostEditorView,
  (a, b) =>
    a.i === b.i &&
    a.post === b.post &&
    a.count === b.count &&
    a.dragOver === b.dragOver &&
    a.verdicts.length === b.verdicts.length &&
    a.verdicts.every((x, k) => x.pl === b.verdicts[k].pl && x.v === b.verdicts[k].v),
);
