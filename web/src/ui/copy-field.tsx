import { cn } from '../lib/class-names';
import { Button } from './button';
import { Input } from './input';
import { toast } from './toast';

/** A secret or link to hand on: shown read-only (selected on focus) with a button that copies it. */
export function CopyField({
  value,
  label,
  copyLabel,
  copied,
  mono = false,
}: {
  value: string;
  /** The field's and its button's names for screen readers. */
  label: string;
  copyLabel: string;
  /** The toast's line once copied: where to paste it. */
  copied: string;
  mono?: boolean;
}) {
  return (
    <div className="flex gap-2">
      <Input
        readOnly
        value={value}
        aria-label={label}
        className={cn(mono && 'font-mono text-xs')}
        onFocus={(e) => e.currentTarget.select()}
      />
      <Button
        variant="outline"
        aria-label={copyLabel}
        onClick={() => navigator.clipboard.writeText(value).then(() => toast({ title: 'Copied', description: copied }))}
      >
        Copy
      </Button>
    </div>
  );
}
