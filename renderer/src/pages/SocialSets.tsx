import { useState } from 'react';
import { client } from '../api';
import { ErrorText, Loading, networkName, Page } from '../components/ui';
import { confirmAction } from '../components/undo';
import { useAction, useLoad } from '../hooks';
import { SlotsEditor, ZoneList } from './social-sets/SlotsEditor';

export function SocialSets() {
  const data = useLoad(() =>
    Promise.all([client.listSocialSets(), client.listAccounts()]).then(([s, a]) => ({
      sets: s.socialSets,
      accounts: a.accounts,
    })),
  );
  const { busy, error, run } = useAction();
  const [name, setName] = useState('');
  const toggle = (setId: string, ids: string[], accountId: string) =>
    run(async () => {
      const next = ids.includes(accountId) ? ids.filter((x) => x !== accountId) : [...ids, accountId];
      // Shown at once; the server's answer then replaces it (or the error says why not).
      data.setData(
        (d) =>
          d &&
          ({
            ...d,
            sets: d.sets.map((s) =>
              s.id !== setId
                ? s
                : {
                    ...s,
                    accounts: next.map(
                      (id) =>
                        s.accounts.find((a) => a.accountId === id) ?? { accountId: id, platform: '', username: '' },
                    ),
                  },
            ),
          } as typeof d),
      );
      try {
        await client.updateSocialSet({ id: setId, accountIds: next });
      } finally {
        await data.reload();
      }
    });
  return (
    <Page title="Social sets">
      <ErrorText error={data.error ?? error} />
      {data.loading && !data.data && <Loading what="Loading social sets" />}
      <ZoneList />
      <form
        className="panel row"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            await client.createSocialSet({ name });
            setName('');
            await data.reload();
          });
        }}
      >
        <input
          className="grow"
          placeholder="New set name"
          aria-label="New set name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
        />
        <button className="primary" type="submit" disabled={busy}>
          Create set
        </button>
      </form>
      {data.data?.sets.map((s) => (
        <div className="panel" key={s.id} data-set={s.id}>
          <div className="row">
            <h2 className="grow">
              {s.name} {s.isDefault && <span className="chip ok">default</span>}
            </h2>
            {!s.isDefault && (
              <button
                type="button"
                onClick={() =>
                  void run(async () => {
                    await client.updateSocialSet({ id: s.id, isDefault: true });
                    await data.reload();
                  })
                }
              >
                Make default
              </button>
            )}
            <button
              type="button"
              className="danger"
              onClick={() => {
                if (confirmAction(`Delete the set ${s.name}? Its slots go with it; drafts are kept.`))
                  void run(async () => {
                    await client.deleteSocialSet(s.id);
                    await data.reload();
                  });
              }}
            >
              Delete
            </button>
          </div>
          <div className="row">
            {data.data!.accounts.map((a) => {
              const ids = s.accounts.map((x) => x.accountId);
              return (
                <label key={a.uuid} className="chip">
                  <input
                    type="checkbox"
                    checked={ids.includes(a.uuid)}
                    disabled={busy}
                    onChange={() => void toggle(s.id, ids, a.uuid)}
                  />{' '}
                  {networkName(a.platform)} @{a.username}
                </label>
              );
            })}
            {data.data!.accounts.length === 0 && <span className="muted">Connect accounts first.</span>}
          </div>
          <SlotsEditor setId={s.id} setName={s.name} timeZone={s.timeZone} onSaved={() => void data.reload()} />
        </div>
      ))}
    </Page>
  );
}
