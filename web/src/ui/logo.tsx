import { Ship } from 'lucide-react';

export function Logo() {
  return (
    <span className="flex items-center gap-2">
      <span className="flex size-8 items-center justify-center rounded-lg bg-primary text-primary-foreground">
        <Ship className="size-5" aria-hidden />
      </span>
      <span className="text-lg font-bold tracking-tight">Shiplog</span>
    </span>
  );
}
