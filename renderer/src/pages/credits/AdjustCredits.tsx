/**
 * Credits → add or remove: the owner's own budget, changed in two steps (the form, then a
 * confirmation that says what the balance becomes). The server refuses a result below zero and
 * another user's key; nothing is written then.
 */
import { useState } from 'react';
import { client } from '../../api';
import { useAction } from '../../hooks';
import { ErrorText, Notice } from '../../components/ui';

type Direction = 'add' | 'remove';

const numbers = new Intl.NumberFormat();
const fmt = (v: number | undefined) => (v === undefined ? '' : numbers.format(v));

export function AdjustCredits({ balance, onDone }: { balance?: number; onDone: () => void }) {
  const { busy, error, run, setError } = useAction();
  const [direction, setDirection] = useState<Direction>('add');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState<string | undefined>();
  const n = Number(amount);
  const valid = /^\d+$/.test(amount.trim()) && n > 0 && n <= 1_000_000;
  const signed = direction === 'add' ? n : -n;
  const after = balance === undefined ? undefined : balance + signed;
  const review = () => {
    setDone(undefined);
    if (!valid) {
      setError('Enter a whole number of credits from 1 to 1,000,000.');
      return;
    }
    if (after !== undefined && after < 0) {
      setError(`The balance is ${fmt(balance)}: at most that can be removed.`);
      return;
    }
    setError(undefined);
    setAsking(true);
  };
  const apply = () =>
    run(async () => {
      const r = await client.adjustCredits({ amount: signed, ...(note.trim() ? { note: note.trim() } : {}) });
      setDone(`${direction === 'add' ? 'Added' : 'Removed'} ${fmt(n)} credits; the balance is ${fmt(r.balance)}.`);
      setAsking(false);
      setAmount('');
      setNote('');
      onDone();
    });
  return (
    <form
      className="panel"
      data-adjust-credits
      onSubmit={(e) => {
        e.preventDefault();
        if (!asking) review();
      }}
    >
      <h2>Add or remove credits</h2>
      <p className="muted small">
        They are yours to set: add some for a busy week, or remove some to keep yourself to a smaller budget.
      </p>
      <fieldset className="plain" disabled={asking || busy}>
        <div className="row">
          <label className="field">
            Change
            <select
              aria-label="Add or remove"
              value={direction}
              onChange={(e) => setDirection(e.target.value as Direction)}
            >
              <option value="add">add</option>
              <option value="remove">remove</option>
            </select>
          </label>
          <label className="field">
            Credits
            <input
              aria-label="Credits to change"
              inputMode="numeric"
              type="number"
              min={1}
              step={1}
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              style={{ width: '12ch' }}
            />
          </label>
          <label className="field grow">
            Note (optional, kept in the history)
            <input aria-label="Note" maxLength={300} value={note} onChange={(e) => setNote(e.target.value)} />
          </label>
        </div>
      </fieldset>
      {!asking && (
        <button type="submit" className="primary" disabled={busy}>
          Review
        </button>
      )}
      {asking && (
        <div className="banner" role="alertdialog" aria-label="Confirm the change" data-confirm-adjust>
          <p>
            {direction === 'add' ? 'Add' : 'Remove'} <strong>{fmt(n)}</strong> credits?
            {after !== undefined && (
              <>
                {' '}
                The balance goes from {fmt(balance)} to <strong>{fmt(after)}</strong>.
              </>
            )}
          </p>
          <div className="row">
            <button type="button" className="primary" disabled={busy} onClick={() => void apply()}>
              {direction === 'add' ? `Add ${fmt(n)} credits` : `Remove ${fmt(n)} credits`}
            </button>
            <button type="button" disabled={busy} onClick={() => setAsking(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <ErrorText error={error} />
      <Notice>{done}</Notice>
    </form>
  );
}
