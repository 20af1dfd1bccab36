/**
 * A progress bar (`role="progressbar"`): `value` of `max` when known, moving back and forth when not
 * (`value` undefined). `label` names it for assistive technology; the text beside it says the counts.
 */
export function Progress({ value, max = 100, label }: { value?: number; max?: number; label: string }) {
  const known = value !== undefined && max > 0;
  const share = known ? Math.min(100, Math.round((value / max) * 100)) : 100;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={known ? max : undefined}
      aria-valuenow={known ? Math.min(value, max) : undefined}
      className="h-2 w-full overflow-hidden rounded-full bg-muted"
    >
      <div
        className={known ? 'h-full bg-primary transition-all' : 'h-full animate-pulse bg-primary'}
        style={{ width: `${share}%` }}
      />
    </div>
  );
}
