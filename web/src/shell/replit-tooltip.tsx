import type { ComponentType } from 'react';
import { Tooltip, TooltipContent, TooltipTrigger } from '../ui/tooltip';

/** The Replit entry's 'Coming soon!' tooltip, loaded when pointed at (sidebar.tsx), which hands it the entry as `Trigger`. */
export function ReplitTooltip({ defaultOpen, Trigger }: { defaultOpen?: boolean; Trigger: ComponentType }) {
  return (
    <Tooltip defaultOpen={defaultOpen}>
      <TooltipTrigger asChild>
        <Trigger />
      </TooltipTrigger>
      <TooltipContent side="right">Coming soon!</TooltipContent>
    </Tooltip>
  );
}
