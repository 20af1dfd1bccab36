import { Suspense, useEffect, useState } from 'react';
import { lazyPart } from '../../lib/on-demand';
import { answerReauth } from '../../lib/reauth';

const ReauthDialog = lazyPart(() => import('./reauth-dialog'), 'ReauthDialog');

/**
 * Mounted at the root: answers `confirmPassword()` (lib/reauth.ts) with the password dialog, whose code
 * loads the first time it is needed, so no page's first load carries it.
 */
export function ReauthHost() {
  const [asking, setAsking] = useState<{ id: number; resolve: (confirmed: boolean) => void } | null>(null);

  useEffect(
    () =>
      answerReauth(
        () =>
          new Promise<boolean>((resolve) =>
            setAsking((earlier) => {
              // A second ask while one is open: the first is declined, the new one asked.
              earlier?.resolve(false);
              return { id: (earlier?.id ?? 0) + 1, resolve };
            }),
          ),
      ),
    [],
  );

  if (!asking) return null;
  return (
    <Suspense fallback={null}>
      <ReauthDialog
        key={asking.id}
        onDone={(confirmed) => {
          asking.resolve(confirmed);
          setAsking(null);
        }}
      />
    </Suspense>
  );
}
