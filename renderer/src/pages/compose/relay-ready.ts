/**
 * Whether the install has a media relay (Settings → Media relay): with one, Threads takes the
 * media kept in Herald; without, the composer says to set one up. Read once per composer.
 */
import { useEffect, useState } from 'react';
import { client } from '../../api';

export function useRelayReady(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let live = true;
    client
      .getMediaRelay()
      .then((r) => live && setReady(r.relay !== null))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return ready;
}
