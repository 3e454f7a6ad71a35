/**
 * On a wide window a long thread's preview is a box of its own that scrolls (previews.css), and
 * it follows the editor: when a post's text box takes the focus, each network's preview scrolls
 * (itself, never the page) to that post as the network draws it. A preview that is not a scroll
 * box (a short thread, a narrow window, where the previews follow the editor down the page) is
 * left alone. Nothing runs while typing: only a change of focus moves the previews.
 */
import { useEffect, type RefObject } from 'react';

/** How far below the top of its box the followed post starts, so the one before it peeks in. */
const PEEK_PX = 24;

export function followEditedPost(previews: HTMLElement, part: number, smooth: boolean): void {
  for (const screen of previews.querySelectorAll<HTMLElement>('[data-screen]')) {
    if (screen.scrollHeight <= screen.clientHeight) continue;
    const posts = screen.querySelectorAll<HTMLElement>('.pv-post');
    // A network's own text can have fewer posts than the thread: its last one is the nearest.
    const post = posts[Math.min(part, posts.length - 1)];
    if (!post) continue;
    const top = post.getBoundingClientRect().top - screen.getBoundingClientRect().top + screen.scrollTop;
    screen.scrollTo({ top: part === 0 ? 0 : Math.max(0, top - PEEK_PX), behavior: smooth ? 'smooth' : 'auto' });
  }
}

/** Follows the editor's focus with the previews inside `section`. */
export function usePreviewFollow(section: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const onFocus = (e: FocusEvent) => {
      const box = e.target;
      if (!(box instanceof HTMLTextAreaElement) || !section.current) return;
      const part = Number(box.closest('.post[data-post]')?.getAttribute('data-post'));
      if (!Number.isInteger(part)) return;
      followEditedPost(section.current, part, !matchMedia('(prefers-reduced-motion: reduce)').matches);
    };
    document.addEventListener('focusin', onFocus);
    return () => document.removeEventListener('focusin', onFocus);
  }, [section]);
}
