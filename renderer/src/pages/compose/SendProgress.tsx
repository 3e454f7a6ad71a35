/** After publish or schedule: each target's live status, and the fire times jitter chose. */
import type { client } from '../../api';
import { networkName, StatusChip, ThreadPartsNote } from '../../components/ui';
import { Time, useTimes } from '../../components/time';
import { waitingText } from '../../components/waiting';
import { offsetText, type Progress } from './model';

type Account = Awaited<ReturnType<typeof client.listAccounts>>['accounts'][number];
type Schedule = Awaited<ReturnType<typeof client.listSchedules>>['schedules'][number];

export function SendProgress({ progress, accounts }: { progress: Progress; accounts: Account[] | undefined }) {
  const times = useTimes();
  const { completed, failed, total } = progress.summary;
  // A network skipped on purpose (an evergreen repeat it refuses) is done, not still to go.
  const skipped = progress.entries.filter((e) => e.status === 'skipped').length;
  return (
    <div aria-label="Publishing progress" style={{ marginTop: 12 }}>
      <div
        className="bar"
        style={{
          width: `${Math.round((100 * (completed + failed + skipped)) / Math.max(1, total))}%`,
        }}
      />
      <table>
        <tbody>
          {progress.entries.map((e) => {
            const a = accounts?.find((x) => x.uuid === e.accountUuid);
            return (
              <tr key={e.id} data-progress={e.platform}>
                <td>
                  {networkName(e.platform)}
                  {a ? ` @${a.username}` : ''}
                </td>
                <td>
                  <StatusChip status={e.status} />
                  <ThreadPartsNote status={e.status} parts={e.parts} />
                </td>
                <td className="small">
                  {e.url ? (
                    <a href={e.url} target="_blank" rel="noreferrer noopener">
                      open
                    </a>
                  ) : waitingText(e, times.at) ? (
                    <span className="muted" data-waiting={e.waitingFor}>
                      {waitingText(e, times.at)}
                    </span>
                  ) : e.status === 'skipped' ? (
                    <span className="muted">{e.error}</span>
                  ) : (
                    <span className="error">{e.error}</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function FireTimes({ schedules, requested }: { schedules: Schedule[]; requested: number | undefined }) {
  const times = useTimes();
  if (schedules.length === 0) return null;
  return (
    <div style={{ marginTop: 12 }} aria-label="Scheduled">
      <b className="small">
        Fires at (jitter applied{requested ? `, asked for ${times.scheduled(requested, schedules[0].timeZone)}` : ''})
      </b>
      <table>
        <tbody>
          {schedules.map((s) => (
            <tr key={s.id} data-schedule={s.id}>
              <td>{networkName(s.platform)}</td>
              <td>
                <Time at={s.scheduledFor} zone={s.timeZone} />
              </td>
              <td className="muted small">{requested ? offsetText(Date.parse(s.scheduledFor) - requested) : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
