import { Tooltip, TooltipContent, TooltipTrigger } from '../ui/tooltip';
import { ReplitEntry } from './app-shell';

export function ReplitTooltip({ defaultOpen }: { defaultOpen?: boolean }) {
  return (
    <Tooltip defaultOpen={defaultOpen}>
      <TooltipTrigger asChild>
        <ReplitEntry />
      </TooltipTrigger>
      <TooltipContent side="right">Coming soon!</TooltipContent>
    </Tooltip>
  );
}
