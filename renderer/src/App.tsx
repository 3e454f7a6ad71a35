import { useEffect, useState, type ComponentType } from 'react';
import { client, desktop, HeraldError, message, onKeyChange, setKey, signOut } from './api';
import { finishSignIn, signInReturn } from './signin-return';
import { Login, type SignInMethods } from './pages/Welcome';
import { Setup, type Step as WizardStep } from './pages/Setup';
import { AttentionBanner } from './components/attention';
import { Compose } from './pages/Compose';
import { Drafts } from './pages/Drafts';
import { Queue } from './pages/Queue';
import { Calendar } from './pages/Calendar';
import { Toasts } from './components/undo';
import { History } from './pages/History';
import { Analytics } from './pages/Analytics';
import { Accounts } from './pages/Accounts';
import { SocialSets } from './pages/SocialSets';
import { Templates } from './pages/Templates';
import { ApiKeys } from './pages/ApiKeys';
import { Credits } from './pages/Credits';
import { Settings } from './pages/Settings';
import { Networks } from './pages/Networks';
import { navigate, readRoute, type PageId } from './router';
import { applyTheme } from './theme';
import { ShortcutsHelp } from './components/Shortcuts';
import { watchBrowserNotifications } from './notifications';

const PAGES: readonly (readonly [PageId, string, ComponentType<{ params: URLSearchParams }>])[] = [
  ['compose', 'Compose', Compose],
  ['drafts', 'Drafts', Drafts],
  ['queue', 'Queue', Queue],
  ['calendar', 'Calendar', Calendar],
  ['history', 'History', History],
  ['analytics', 'Analytics', Analytics],
  ['accounts', 'Accounts', Accounts],
  ['sets', 'Social sets', SocialSets],
  ['templates', 'Templates', Templates],
  ['keys', 'API keys', ApiKeys],
  ['credits', 'Credits', Credits],
  ['settings', 'Settings', Settings],
  ['networks', 'Networks', Networks],
];

export function App() {
  const [state, setState] = useState<'loading' | 'setup' | 'login' | 'ready'>('loading');
  const [signInWith, setSignInWith] = useState<SignInMethods | undefined>();
  const [loginNotice, setLoginNotice] = useState<string | undefined>();
  const [route, setRoute] = useState(readRoute);
  /** The wizard step to resume at once signed in (kept on the server until the wizard is finished). */
  const [wizardAt, setWizardAt] = useState<WizardStep>('owner');
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    applyTheme(localStorage.getItem('herald.theme') ?? 'system');
    // Following the system: switch when the system does.
    const scheme = window.matchMedia('(prefers-color-scheme: dark)');
    const onScheme = () => applyTheme(localStorage.getItem('herald.theme') ?? 'system');
    scheme.addEventListener('change', onScheme);
    const onHash = () => setRoute(readRoute());
    window.addEventListener('hashchange', onHash);
    let retry: ReturnType<typeof setTimeout> | undefined;
    const start = async () => {
      try {
        const setup = await client.needsSetup();
        setSignInWith(setup.signIn);
        setWizardAt(setup.wizardStep ?? 'owner');
        const back = signInReturn();
        if (back) {
          try {
            setKey(await finishSignIn(back));
          } catch (err) {
            setKey(undefined);
            setLoginNotice(message(err));
            return setState(setup.needsSetup ? 'setup' : 'login');
          }
        }
        if (setup.needsSetup) return setState('setup');
        if (!client.apiKey) return setState('login');
        await client.me();
        setLoginNotice(undefined);
        setState(setup.wizardStep ? 'setup' : 'ready');
      } catch (err) {
        // Only a key the server refuses is forgotten. Herald not answering (restarting, or this
        // page being left while it asked) must not sign anyone out: ask again in a moment.
        if (err instanceof HeraldError && err.status === 401) {
          setKey(undefined);
          setState('login');
          return;
        }
        setLoginNotice(`Herald is not answering (${message(err)}); trying again…`);
        retry = setTimeout(() => void start(), 2_000);
      }
    };
    void start();
    return () => {
      clearTimeout(retry);
      window.removeEventListener('hashchange', onHash);
      scheme.removeEventListener('change', onScheme);
    };
  }, []);

  // One sign-in for all tabs: another tab's sign-out returns this one to the sign-in page, and
  // its sign-in takes this one in.
  useEffect(() => {
    if (desktop) return undefined;
    return onKeyChange((key) => {
      if (!key) return setState((s) => (s === 'ready' ? 'login' : s));
      void client.me().then(
        () => setState((s) => (s === 'login' ? 'ready' : s)),
        () => undefined,
      );
    });
  }, []);

  // In a browser, notifications follow the event stream while signed in (the desktop app's main process shows its own).
  useEffect(() => (state === 'ready' && !desktop ? watchBrowserNotifications() : undefined), [state]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || state !== 'ready') return;
      if (e.key.toLowerCase() === 'n') {
        e.preventDefault();
        navigate('compose', { new: String(Date.now()) });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [state]);

  // On a narrow window the navigation is behind a menu button: choosing a page closes it.
  useEffect(() => {
    setMenuOpen(false);
  }, [route.page, route.params]);

  if (state === 'loading')
    return (
      <div className="center muted" role="status">
        {loginNotice ?? 'Loading…'}
      </div>
    );
  const signedIn = async (key?: string) => {
    if (key) setKey(desktop ? (await desktop.refreshKey().catch(() => key)) || key : key);
    // Signed in halfway through the wizard (a reload, another browser): it resumes where it was.
    const step = (await client.needsSetup().catch(() => undefined))?.wizardStep;
    if (step && state !== 'setup') {
      setWizardAt(step);
      setState('setup');
      return;
    }
    setState('ready');
  };
  if (state === 'setup') return <Setup start={wizardAt} onDone={(key) => void signedIn(key)} />;
  if (state === 'login') return <Login onDone={signedIn} signInWith={signInWith} notice={loginNotice} />;

  const Page = PAGES.find(([id]) => id === route.page)![2];
  return (
    <div className="layout">
      <nav className={`sidebar${menuOpen ? ' open' : ''}`} aria-label="Main">
        <div className="nav-top">
          <div className="brand">
            Herald<span>.</span>
          </div>
          <span className="nav-current" aria-hidden="true">
            {PAGES.find(([id]) => id === route.page)?.[1]}
          </span>
          <button
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls="nav-items"
            onClick={() => setMenuOpen((o) => !o)}
          >
            <span aria-hidden="true">{menuOpen ? '✕' : '☰'}</span> Menu
          </button>
        </div>
        <div className="nav-items" id="nav-items">
          {PAGES.map(([id, label]) => (
            <a
              key={id}
              href={`#/${id}`}
              className={`nav-item${route.page === id ? ' active' : ''}`}
              aria-current={route.page === id ? 'page' : undefined}
              data-nav={id}
              onClick={() => setMenuOpen(false)}
            >
              {label}
            </a>
          ))}
          <div className="spacer" />
          {!desktop && (
            <button
              type="button"
              onClick={() => {
                void signOut().then(() => setState('login'));
              }}
            >
              Sign out
            </button>
          )}
        </div>
      </nav>
      <main className="main">
        <AttentionBanner key={route.page} />
        <Page params={route.params} />
      </main>
      <ShortcutsHelp />
      <Toasts />
    </div>
  );
}
