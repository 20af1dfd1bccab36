import { type ComponentProps, type ComponentType, lazy, Suspense, useState } from 'react';

/** What a plain trigger receives: the handlers that load and open its control. */
type TriggerProps = Pick<ComponentProps<'button'>, 'onClick' | 'onFocus' | 'onPointerEnter'>;

/**
 * A control whose Radix part (a menu, a popover, a dialog, a tooltip) loads on first use, so it is not
 * in any page's first load. Until then `Trigger` renders alone, looking as it will: pointing
 * at it or focusing it starts the download, and a click (or, with `openOn: 'hover'`, the pointer or
 * focus itself) mounts the loaded control open, its own trigger in the same place.
 * `load` resolves to a component that renders the whole control (trigger included) and opens it when
 * given `defaultOpen`.
 */
export function onDemand<P extends object>(
  load: () => Promise<ComponentType<P & { defaultOpen?: boolean }>>,
  Trigger: ComponentType<P & TriggerProps>,
  { openOn = 'click' }: { openOn?: 'click' | 'hover' } = {},
): ComponentType<P> {
  const Loaded = lazy(async () => ({ default: await load() }));
  const preload = () => void load();
  return function OnDemand(props: P) {
    const [opened, setOpened] = useState(false);
    const open = () => setOpened(true);
    const trigger = (
      <Trigger
        {...props}
        onPointerEnter={openOn === 'hover' ? open : preload}
        onFocus={openOn === 'hover' ? open : preload}
        onClick={open}
      />
    );
    if (!opened) return trigger;
    return (
      <Suspense fallback={trigger}>
        <Loaded {...props} defaultOpen />
      </Suspense>
    );
  };
}
