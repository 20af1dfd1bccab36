import { Loader2 } from 'lucide-react';
import { cn } from '../lib/class-names';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" aria-label={label} className="inline-flex">
      <Loader2 className={cn('size-8 animate-spin text-primary', className)} aria-hidden />
    </span>
  );
}
