import { useSyncExternalStore } from 'react';

/** Whether the browser is online, as it changes (the shell's offline banner, the error page). */
export function useOnline(): boolean {
  return useSyncExternalStore(followOnline, () => navigator.onLine);
}

function followOnline(changed: () => void) {
  addEventListener('online', changed);
  addEventListener('offline', changed);
  return () => {
    removeEventListener('online', changed);
    removeEventListener('offline', changed);
  };
}
