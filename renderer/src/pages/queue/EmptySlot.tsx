/** One click turns an evergreen fill back into an empty slot (the slot is not filled again). */
import { client } from '../../api';

export function EmptySlot(p: {
  setId: string;
  at: string;
  busy: boolean;
  run: (fn: () => Promise<unknown>) => Promise<unknown>;
  reload: () => Promise<void>;
}) {
  return (
    <button
      type="button"
      disabled={p.busy}
      data-empty-slot
      title="Take this evergreen repeat out; the slot stays empty"
      onClick={() => void p.run(() => client.clearEvergreenFill(p.setId, p.at).then(p.reload))}
    >
      Empty slot
    </button>
  );
}
