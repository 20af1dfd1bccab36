import {
  type ComponentProps,
  createContext,
  type KeyboardEvent,
  type ReactNode,
  useContext,
  useId,
  useRef,
  useState,
} from 'react';
import { cn } from '../lib/class-names';

/**
 * Tabs as the WAI-ARIA tabs pattern has them (automatic activation, arrow keys, Home and End, only the
 * selected tab in the tab order; the inactive panels are not rendered), small enough for the sign-in
 * page's first load.
 */
const TabsContext = createContext<{ value: string; select: (value: string) => void; id: string } | null>(null);

function useTabs() {
  const tabs = useContext(TabsContext);
  if (!tabs) throw new Error('Tabs parts must be inside <Tabs>');
  return tabs;
}

const tabId = (id: string, value: string) => `${id}-tab-${value}`;
const panelId = (id: string, value: string) => `${id}-panel-${value}`;

export function Tabs({
  defaultValue,
  className,
  children,
}: {
  defaultValue: string;
  className?: string;
  children: ReactNode;
}) {
  const [value, select] = useState(defaultValue);
  const id = useId();
  return (
    <TabsContext.Provider value={{ value, select, id }}>
      <div className={className}>{children}</div>
    </TabsContext.Provider>
  );
}

export function TabsList({ className, ...props }: ComponentProps<'div'>) {
  const list = useRef<HTMLDivElement>(null);
  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const tabs = [...(list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]:not(:disabled)') ?? [])];
    const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
    const next = {
      ArrowRight: at + 1,
      ArrowLeft: at - 1 + tabs.length,
      Home: 0,
      End: tabs.length - 1,
    }[event.key];
    if (at < 0 || next === undefined) return;
    event.preventDefault();
    const tab = tabs[next % tabs.length];
    tab?.focus();
    tab?.click();
  };
  return (
    <div
      ref={list}
      role="tablist"
      aria-orientation="horizontal"
      onKeyDown={move}
      className={cn('inline-flex h-10 items-center rounded-md bg-muted p-1 text-muted-foreground', className)}
      {...props}
    />
  );
}

export function TabsTrigger({ value, className, ...props }: ComponentProps<'button'> & { value: string }) {
  const tabs = useTabs();
  const selected = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabId(tabs.id, value)}
      aria-selected={selected}
      aria-controls={panelId(tabs.id, value)}
      tabIndex={selected ? 0 : -1}
      data-state={selected ? 'active' : 'inactive'}
      onClick={() => tabs.select(value)}
      className={cn(
        'inline-flex items-center justify-center rounded-sm px-3 py-1.5 text-sm font-medium transition-all',
        'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
        'data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-sm',
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ value, className, ...props }: ComponentProps<'div'> & { value: string }) {
  const tabs = useTabs();
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={panelId(tabs.id, value)}
      aria-labelledby={tabId(tabs.id, value)}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the WAI-ARIA tabs pattern puts the panel in the tab order, so a panel without a focusable control can be reached
      tabIndex={0}
      data-state="active"
      className={cn('mt-4 focus-visible:outline-none', className)}
      {...props}
    />
  );
}
