import { useCallback, useEffect, useRef, useState } from 'react';
import { message } from './api';

/**
 * Data loaded from the API, reloaded when `deps` change or on demand. reload() always runs the
 * latest `load` (a handler created before a new draft was saved still reloads for that draft), and
 * only the newest request's answer is kept: an older one arriving late does not overwrite it.
 * Errors become readable text.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [loading, setLoading] = useState(true);
  const latest = useRef(load);
  latest.current = load;
  const sequence = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++sequence.current;
    setLoading(true);
    try {
      const value = await latest.current();
      if (mine !== sequence.current) return;
      setData(value);
      setError(undefined);
    } catch (err) {
      if (mine === sequence.current) setError(message(err));
    } finally {
      if (mine === sequence.current) setLoading(false);
    }
  }, []);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => {
    void reload();
  }, deps);
  return { data, error, loading, reload, setData };
}

/** Runs an action, remembering its error. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const run = useCallback(async <T>(fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await fn();
    } catch (err) {
      setError(message(err));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, setError };
}
