/** "?" anywhere outside a text field lists the keyboard shortcuts; Esc closes the list. */
import { useEffect, useState } from 'react';
import { Overlay } from './Overlay';

const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const mod = mac ? '⌘' : 'Ctrl';

export const SHORTCUTS: [string, string][] = [
  [`${mod}+Enter`, 'Publish: opens the confirmation (nothing is sent until you confirm)'],
  [`${mod}+S`, 'Save the draft'],
  [`${mod}+N`, 'Start a new draft'],
  ['?', 'Show these shortcuts'],
  ['Esc', 'Close a dialog or this list'],
];

const typing = (t: EventTarget | null) =>
  t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));

/** Opens on "?" (or when `open` is set by a button); one instance, mounted by the app. */
export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target)) {
        e.preventDefault();
        setOpen(true);
      }
    };
    const onAsk = () => setOpen(true);
    window.addEventListener('keydown', onKey);
    window.addEventListener('herald:shortcuts', onAsk);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('herald:shortcuts', onAsk);
    };
  }, []);
  if (!open) return null;
  return (
    <Overlay title="Keyboard shortcuts" name="shortcuts" onClose={() => setOpen(false)}>
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map(([k, what]) => (
            <tr key={k}>
              <td>
                <kbd>{k}</kbd>
              </td>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="row" style={{ justifyContent: 'flex-end', marginTop: 12 }}>
        <button type="button" data-autofocus onClick={() => setOpen(false)}>
          Close
        </button>
      </div>
    </Overlay>
  );
}

/** Opens the shortcuts list from a button. */
export const showShortcuts = () => window.dispatchEvent(new Event('herald:shortcuts'));
