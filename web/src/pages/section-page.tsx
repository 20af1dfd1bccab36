/**
 * A navigation target of the shell whose screen comes with a later issue: the shell, its header and
 * title render; the page body stays empty until that screen lands.
 */
export function SectionPage() {
  return <div aria-live="polite" />;
}
