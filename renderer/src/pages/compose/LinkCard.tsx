/**
 * The link card under the post that holds its link (docs/decisions.md §16): by default the first link of
 * the first post, read by the server (GET /link-preview, through its address policy and cache).
 * The person can remove it or pick another link of the text; a page that cannot be read shows
 * nothing. Bluesky and LinkedIn get this card from Herald; X, Mastodon and Threads make their own.
 */
import { useEffect, useState } from 'react';
import { client } from '../../api';
import { cardUrl, type CardChoice } from './derive';

export type Card = NonNullable<Awaited<ReturnType<typeof client.linkPreview>>['card']>;

/**
 * The card of `url` as the server reads it: `undefined` while loading, null when the page cannot
 * be read. Shared by the card under the post and the network previews (they show the same card).
 */
export function useLinkCard(url: string | null): { url: string; card?: Card | null } | undefined {
  const [state, setState] = useState<{ url: string; card?: Card | null }>();
  useEffect(() => {
    if (!url) {
      setState(undefined);
      return;
    }
    let live = true;
    setState({ url });
    // Typing changes the link a character at a time: ask once it has been still for a moment.
    const timer = setTimeout(() => {
      client.linkPreview(url).then(
        (r) => {
          if (live) setState({ url, card: r.card });
        },
        () => {
          if (live) setState({ url, card: null });
        },
      );
    }, 350);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [url]);
  return state;
}

/** The card's image, read through Herald (the UI may load images only from Herald itself). */
function CardImage({ pageUrl }: { pageUrl: string }) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    let live = true;
    let made: string | undefined;
    client.linkPreviewImage(pageUrl).then(
      (blob) => {
        if (live) setSrc((made = URL.createObjectURL(blob)));
      },
      () => undefined,
    );
    return () => {
      live = false;
      setSrc(undefined);
      if (made) URL.revokeObjectURL(made);
    };
  }, [pageUrl]);
  return src ? <img src={src} alt="" className="link-card-image" data-link-card-image /> : null;
}

export function LinkCard({
  choice,
  firstPostLink,
  links,
  onChange,
}: {
  choice: CardChoice;
  firstPostLink: string | null;
  /** Every link of the draft's text, in order: what "use another link" offers. */
  links: string[];
  onChange: (choice: CardChoice) => void;
}) {
  const url = cardUrl(choice, firstPostLink);
  const state = useLinkCard(url);
  const [picking, setPicking] = useState(false);

  if (choice === false) {
    if (links.length === 0) return null;
    return (
      <p className="small muted" data-link-card="removed">
        No link card.{' '}
        <button type="button" className="link" onClick={() => onChange(null)}>
          Add a link card
        </button>
      </p>
    );
  }
  if (!url || !state) return null;
  const others = links.filter((l) => l !== url);
  if (state.card === undefined)
    return (
      <div className="link-card loading" data-link-card="loading" role="status" aria-live="polite">
        Loading link preview…
      </div>
    );
  if (state.card === null) return null;
  const card = state.card;
  let host = '';
  try {
    host = new URL(card.url).host;
  } catch {
    /* shown without it */
  }
  return (
    <div className="link-card" data-link-card="ready" data-link-card-url={card.url}>
      {card.imageUrl && <CardImage pageUrl={card.url} />}
      <div className="link-card-body">
        <div className="small muted">{card.siteName ?? host}</div>
        <div className="link-card-title">{card.title || card.url}</div>
        {card.description && <div className="small link-card-description">{card.description}</div>}
      </div>
      <div className="row small">
        {others.length > 0 && (
          <button type="button" className="small" aria-expanded={picking} onClick={() => setPicking(!picking)}>
            Use another link
          </button>
        )}
        <button type="button" className="small" aria-label="Remove link card" onClick={() => onChange(false)}>
          Remove
        </button>
      </div>
      {picking && (
        <div role="group" aria-label="Links in the text" className="link-card-choices">
          {others.map((l) => (
            <button
              key={l}
              type="button"
              className="small link"
              data-link-choice={l}
              onClick={() => {
                setPicking(false);
                onChange({ url: l });
              }}
            >
              {l}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
