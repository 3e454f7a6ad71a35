/**
 * One click turns an evergreen fill back into an empty slot (the slot is not filled again). The
 * call is held back for 10 s with Undo (components/undo.tsx); pages hide the fill meanwhile,
 * asking useHeld() about fillKey().
 */
import { client } from '../../api';
import { withUndo } from '../../components/undo';

export const fillKey = (setId: string, at: string) => `evergreen-fill.${setId}.${Date.parse(at)}`;

export function EmptySlot(p: {
  setId: string;
  at: string;
  title: string;
  busy?: boolean;
  className?: string;
  reload: () => unknown;
}) {
  return (
    <button
      type="button"
      className={p.className}
      disabled={p.busy}
      data-empty-slot
      title="Take this evergreen repeat out; the slot stays empty"
      onClick={() =>
        withUndo({
          key: fillKey(p.setId, p.at),
          text: `Slot emptied: “${p.title}” will not repeat there`,
          commit: () => client.clearEvergreenFill(p.setId, p.at),
          done: p.reload,
        })
      }
    >
      Empty slot
    </button>
  );
}
