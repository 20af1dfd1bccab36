import { isSubscribed } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Zap } from 'lucide-react';
import type { ComponentProps } from 'react';
import { onDemand } from '../../lib/on-demand';
import { userQuery } from '../../lib/queries';
import { Button } from '../../ui/button';

export const QUICK_UPDATE_HINT = 'Quick updates require an active subscription. Please upgrade to use this feature.';
/** The one hint on a page of cards; each card's disabled button points to it. */
const QUICK_UPDATE_HINT_ID = 'quick-update-hint';

/** Whether Quick Update is open to the user: read once per page of cards (ProjectGrid), not per card. */
export function useSubscribed(): boolean {
  const { data: user } = useQuery(userQuery);
  return isSubscribed(user?.subscriptionStatus);
}

export function QuickUpdateButton(props: ComponentProps<'button'>) {
  return (
    <Button variant="outline" size="sm" className="w-full" {...props}>
      <Zap /> Quick Update
    </Button>
  );
}

/**
 * The popover's form (quick-update-popover.tsx) loads on first use. Until then the button stands in
 * for it; the project is the popover's business, not the button's.
 */
const QuickUpdatePopover = onDemand(
  () => import('./quick-update-popover').then((m) => m.QuickUpdatePopover),
  ({ projectId: _, ...trigger }: { projectId: string } & ComponentProps<'button'>) => (
    <QuickUpdateButton {...trigger} />
  ),
);

/**
 * The card's Quick Update: for subscribed users the popover; for others a disabled button described by
 * the page's one hint (`QuickUpdateHint`), which is also its tooltip.
 */
export function QuickUpdate({ projectId, subscribed }: { projectId: string; subscribed: boolean }) {
  if (subscribed) return <QuickUpdatePopover projectId={projectId} />;
  return (
    // A disabled button gets no pointer events; the wrapper carries the tooltip.
    <span title={QUICK_UPDATE_HINT} className="block">
      <QuickUpdateButton disabled aria-describedby={QUICK_UPDATE_HINT_ID} />
    </span>
  );
}

/** Shown once above a page's project cards when Quick Update is not available (spec/core.md §5). */
export function QuickUpdateHint() {
  return (
    <p id={QUICK_UPDATE_HINT_ID} className="text-xs text-muted-foreground">
      {QUICK_UPDATE_HINT}
    </p>
  );
}
