/**
 * Credits → the meter, said plainly: what credits are (a posting budget the owner sets), what
 * the posts scheduled this month already reserve, and when the month's grant ends, in the
 * user's zone (the server's answer names it).
 */
import { Time } from '../../components/time';

export interface CreditsAnswer {
  balance: number;
  expiresAt: string;
  timeZone: string;
  monthlyCredits: number;
  reserved: number;
  scheduled: { posts: number; credits: number };
  warning: string | null;
}

const numbers = new Intl.NumberFormat();
const n = (v: number) => numbers.format(v);

export function CreditMeter({ credits }: { credits?: CreditsAnswer }) {
  const c = credits;
  const free = c ? Math.max(0, c.balance - c.reserved) : undefined;
  return (
    <section className="panel" data-credit-meter aria-label="Credits">
      <div className="meter-figures">
        <div>
          <div className="muted small">Balance</div>
          <div className="meter-big" data-testid="balance">
            {c ? n(c.balance) : '…'}
          </div>
        </div>
        <div>
          <div className="muted small">Reserved by scheduled posts</div>
          <div className="meter-mid" data-reserved>
            {c ? n(c.reserved) : '…'}
          </div>
        </div>
        <div>
          <div className="muted small">Free to use this month</div>
          <div className="meter-mid" data-free>
            {free === undefined ? '…' : n(free)}
          </div>
        </div>
      </div>
      <p>
        Credits are a posting budget you set for yourself: nothing is bought or billed. Each post to one account takes
        10 credits when it is sent, and a post that fails gives them back.
        {c && (
          <>
            {' '}
            You get {n(c.monthlyCredits)} credits each month (change it in Settings; a change applies to this month at
            once).
          </>
        )}
      </p>
      {c && (
        <p className="muted" data-month-end>
          This credit month runs until <Time at={c.expiresAt} /> ({c.timeZone}). Unused credits up to the month's grant
          then lapse and the next grant arrives; anything above the grant carries over.
          {c.reserved > 0 && <> The posts scheduled before then will take {n(c.reserved)}.</>}
        </p>
      )}
      {c?.warning && (
        <p className="warn-text" role="status">
          {c.warning}
        </p>
      )}
    </section>
  );
}
