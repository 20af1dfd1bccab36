import { lazyRouteComponent } from '@tanstack/react-router';
import { type ComponentProps, type ComponentType, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';

/**
 * The one way the app splits its code: TanStack Router's lazy component, for the router's pages and
 * every other part that loads on first use (a control below, a tab's card, a dialog's form). It loads
 * when first rendered, or earlier through `preload` (which it drops once loaded).
 */
export const lazyPart = lazyRouteComponent;

/** What pointing at or focusing a control calls: starts loading the parts it will show. */
export const preloading =
  (...parts: { preload?: () => unknown }[]) =>
  (): void => {
    for (const part of parts) void part.preload?.();
  };

/** What a plain trigger receives: the handlers that load and open its control. */
type TriggerProps = Pick<ComponentProps<'button'>, 'onClick' | 'onFocus' | 'onPointerEnter'>;

/**
 * A control whose Radix part (a menu, a popover, a dialog, a tooltip) loads on first use, so it is not
 * in any page's first load. Until then `Trigger` renders alone, looking as it will: pointing
 * at it or focusing it starts the download, and a click (or, with `openOn: 'hover'`, the pointer or
 * focus itself) mounts the loaded control open, its own trigger in the same place.
 * `load` resolves to a component that renders the whole control and opens it when given `defaultOpen`;
 * it is handed `Trigger` to render as its own trigger, so the part loaded imports nothing from the
 * module that loads it.
 */
export function onDemand<P extends object>(
  load: () => Promise<ComponentType<NoInfer<P> & { defaultOpen?: boolean; Trigger: ComponentType<P & TriggerProps> }>>,
  Trigger: ComponentType<P & TriggerProps>,
  { openOn = 'click' }: { openOn?: 'click' | 'hover' } = {},
): ComponentType<P> {
  type Opened = P & { defaultOpen?: boolean; Trigger: ComponentType<P & TriggerProps> };
  const Loaded = lazyPart(async () => ({ default: (await load()) as (props: Opened) => ReactNode }));
  const preload = preloading(Loaded);
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
        <Loaded {...props} defaultOpen Trigger={Trigger} />
      </Suspense>
    );
  };
}

/**
 * A part below the fold (a lazy part among `children`): `placeholder` holds its place until it comes
 * within 200 px of the screen, then the part loads and renders there. Not part of a page's first load.
 */
export function WhenNear({ children, placeholder }: { children: ReactNode; placeholder: ReactNode }) {
  const [near, setNear] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (near) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), {
      rootMargin: '200px',
    });
    observer.observe(ref.current!);
    return () => observer.disconnect();
  }, [near]);
  return near ? <Suspense fallback={placeholder}>{children}</Suspense> : <div ref={ref}>{placeholder}</div>;
}
