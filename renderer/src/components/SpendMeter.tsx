/**
 * X's pay-per-use spend this month beside the credits (composer and queue): spent plus scheduled
 * against the cap (settings xMonthlyCapUsd), from POST /credits' xSpend.
 */
export interface XSpend {
  monthUsd: number;
  scheduledUsd: number;
  capUsd: number | null;
}

const usd = (n: number) => `$${n.toFixed(Math.abs(n * 100 - Math.round(n * 100)) < 1e-9 ? 2 : 3)}`;

export function SpendMeter({ spend, balance }: { spend?: XSpend; balance?: number }) {
  if (!spend) return null;
  const total = Math.round((spend.monthUsd + spend.scheduledUsd) * 1000) / 1000;
  const over = spend.capUsd !== null && total > spend.capUsd;
  return (
    <p className={`small${over ? ' error' : ' muted'}`} data-spend-meter data-over={over ? 'true' : 'false'}>
      {balance !== undefined && <span data-credits-balance>{balance} credits · </span>}X this month:{' '}
      <b data-spend-month>{usd(spend.monthUsd)}</b> spent + <b data-spend-scheduled>{usd(spend.scheduledUsd)}</b>{' '}
      scheduled
      {spend.capUsd === null ? (
        <span data-spend-cap> (no cap)</span>
      ) : (
        <>
          {' '}
          of <b data-spend-cap>{usd(spend.capUsd)}</b> cap{' '}
          <meter
            min={0}
            max={spend.capUsd || 1}
            high={(spend.capUsd || 1) * 0.8}
            value={Math.min(total, spend.capUsd || 1)}
            aria-label="X spend against the monthly cap"
          />
          {over && <span role="alert"> — over the cap</span>}
        </>
      )}
    </p>
  );
}
