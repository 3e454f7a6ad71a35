import { useEffect, useState } from 'react';
import { client, desktop } from '../api';
import { applyTheme } from '../theme';
import { ErrorText, Loading, Notice, Page } from '../components/ui';
import { useAction, useLoad } from '../hooks';
import { NotificationSettings, XSpendSettings } from './settings/SpendAndNotifications';
import { AlertsPanel } from './settings/Alerts';
import { ZoneField } from '../components/zone-field';
import { setUserZone } from '../components/time';
import { SecretStoreChooser } from '../components/SecretStoreChooser';
import { MediaRelaySettings } from './settings/MediaRelay';

export function Settings() {
  const settings = useLoad(() => client.settings().then((r) => r.settings));
  const { busy, error, run } = useAction();
  const [form, setForm] = useState({
    graceMinutes: 15,
    monthlyCredits: 1000,
    defaultTier: 'pro' as 'free' | 'pro' | 'enterprise',
    defaultLanguage: '',
    fedblogHandOff: true,
    requireAltText: false,
    timeZone: '',
  });
  const [theme, setTheme] = useState(localStorage.getItem('herald.theme') ?? 'system');
  const [note, setNote] = useState<string | undefined>();
  const [backupNote, setBackupNote] = useState<string | undefined>();
  const [storeNote, setStoreNote] = useState<string | undefined>();
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (settings.data) {
      setForm({
        graceMinutes: settings.data.graceMinutes,
        monthlyCredits: settings.data.monthlyCredits,
        defaultTier: settings.data.defaultTier,
        defaultLanguage: settings.data.defaultLanguage,
        fedblogHandOff: settings.data.fedblogHandOff,
        requireAltText: settings.data.requireAltText,
        timeZone: settings.data.timeZone,
      });
      setLoaded(true);
    }
  }, [settings.data]);
  return (
    <Page title="Settings">
      <ErrorText error={settings.error ?? error} />
      {settings.loading && !settings.data && <Loading what="Loading settings" />}
      <div className="panel">
        <h2>Appearance</h2>
        <label className="field">
          Theme
          <select
            value={theme}
            onChange={(e) => {
              setTheme(e.target.value);
              localStorage.setItem('herald.theme', e.target.value);
              applyTheme(e.target.value);
            }}
          >
            <option value="system">Follow the system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
      </div>
      <form
        className="panel"
        onSubmit={(e) => {
          e.preventDefault();
          void run(async () => {
            const r = await client.updateSettings(form);
            setUserZone(r.settings.timeZone);
            setNote('Saved. The grace period and the key tier apply from the next start of Herald; the rest at once.');
          });
        }}
      >
        <h2>Publishing</h2>
        {/* Editable once the saved values are in: typing into the defaults would be overwritten when they arrive. */}
        <fieldset disabled={!loaded} className="plain">
          <ZoneField
            label={
              `Your time zone: times are shown in it, new social sets start in it, the credit month follows it ` +
              `(this computer: ${settings.data?.detected.timeZone ?? '…'}; applies at once)`
            }
            value={form.timeZone}
            onChange={(timeZone) => setForm({ ...form, timeZone })}
            extra={settings.data ? [settings.data.detected.timeZone] : []}
          />
          <label className="field">
            Grace period for posts missed while Herald was closed (minutes)
            <input
              type="number"
              min={0}
              max={1440}
              value={form.graceMinutes}
              onChange={(e) => setForm({ ...form, graceMinutes: Number(e.target.value) })}
            />
          </label>
          <label className="field">
            Language of posts whose draft names none (BCP 47, e.g. en, de, pt-BR; found on this system:{' '}
            {settings.data?.detected.defaultLanguage ?? '…'}; applies at once)
            <input
              required
              value={form.defaultLanguage}
              onChange={(e) => setForm({ ...form, defaultLanguage: e.target.value })}
              data-default-language
            />
          </label>
          <label className="field">
            Monthly credit grant (your own posting budget, 10 per account per post; a change applies to this month at
            once)
            <input
              type="number"
              min={0}
              value={form.monthlyCredits}
              onChange={(e) => setForm({ ...form, monthlyCredits: Number(e.target.value) })}
            />
          </label>
          <label className="field">
            Default tier of new API keys
            <select
              value={form.defaultTier}
              onChange={(e) => setForm({ ...form, defaultTier: e.target.value as 'pro' })}
            >
              <option value="free">free (100 requests/hour)</option>
              <option value="pro">pro (1000/hour)</option>
              <option value="enterprise">enterprise</option>
            </select>
          </label>
          <label className="row" style={{ marginBottom: 12 }}>
            <input
              type="checkbox"
              checked={form.fedblogHandOff}
              onChange={(e) => setForm({ ...form, fedblogHandOff: e.target.checked })}
              data-hand-off-setting
            />
            <span className="grow">
              Hand Mastodon posts due 10 minutes or more ahead to their instance, which publishes them even with Herald
              closed (applies at once)
            </span>
          </label>
          <label className="row" style={{ marginBottom: 12 }}>
            <input
              type="checkbox"
              checked={form.requireAltText}
              onChange={(e) => setForm({ ...form, requireAltText: e.target.checked })}
              data-require-alt-text
            />
            <span className="grow">
              Require alt text: a post with an image, GIF or video without a description cannot be published, scheduled
              or queued (applies at once)
            </span>
          </label>
        </fieldset>
        <button className="primary" type="submit" disabled={busy || !loaded}>
          Save
        </button>
        <Notice>{note}</Notice>
      </form>
      <XSpendSettings current={settings.data} onSaved={() => void settings.reload()} />
      <NotificationSettings current={settings.data?.notifications} />
      <AlertsPanel />
      <div className="panel">
        <h2>Networks</h2>
        <p className="muted">
          The apps Herald uses at X, Threads, LinkedIn and the sign-in provider: guides, redirect URIs, client ids and
          secrets.
        </p>
        <a href="#/networks" data-open-networks>
          Open the Networks page
        </a>
      </div>
      <MediaRelaySettings />
      <div className="panel">
        <h2>Data</h2>
        {settings.data?.dataDir === undefined ? (
          <p className="muted">Where the data and the account tokens are kept is shown to this install's owner.</p>
        ) : (
          <>
            <p className="wrap">
              Data folder: <code>{settings.data.dataDir}</code>
            </p>
            <section aria-label="Where account tokens are kept" className="store-settings" data-secret-store>
              <h3>Where account tokens are kept</h3>
              <SecretStoreChooser
                mode="settings"
                onChosen={(r) => {
                  setStoreNote(
                    `${r.message}${r.moved ? ` ${r.moved} saved secret${r.moved === 1 ? '' : 's'} moved across.` : ''}`,
                  );
                  void settings.reload();
                }}
              />
              <Notice className="ok-text" data-store-note>
                {storeNote}
              </Notice>
            </section>
          </>
        )}
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              const r = await client.backup();
              setBackupNote(`Backed up ${Math.round(r.bytes / 1024)} KB to ${r.file} in ${r.seconds.toFixed(2)} s`);
            })
          }
        >
          Back up now
        </button>
        <Notice>{backupNote}</Notice>
        {desktop && <StartAtLogin />}
        <p className="muted small">Herald {settings.data?.version}</p>
      </div>
    </Page>
  );
}

function StartAtLogin() {
  const [on, setOn] = useState<boolean | undefined>();
  useEffect(() => {
    void (window.herald as unknown as { getStartAtLogin(): Promise<boolean> }).getStartAtLogin().then(setOn);
  }, []);
  return (
    <label className="row" style={{ marginTop: 12 }}>
      <input
        type="checkbox"
        checked={on ?? false}
        onChange={async (e) =>
          setOn(
            await (window.herald as unknown as { setStartAtLogin(v: boolean): Promise<boolean> }).setStartAtLogin(
              e.target.checked,
            ),
          )
        }
      />
      Start Herald when I log in (scheduled posts fire only while it runs)
    </label>
  );
}
