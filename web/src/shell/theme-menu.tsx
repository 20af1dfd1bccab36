import { Moon, Sun } from 'lucide-react';
import type { ComponentProps } from 'react';
import { onDemand } from '../lib/on-demand';
import { Button } from '../ui/button';

/** The header's theme button; its menu (theme-dropdown.tsx) loads on first use. */
export function ThemeButton(props: ComponentProps<'button'>) {
  return (
    <Button variant="ghost" size="icon" aria-label="Theme" {...props}>
      <Sun className="size-5 dark:hidden" />
      <Moon className="hidden size-5 dark:block" />
    </Button>
  );
}

export const ThemeMenu = onDemand(() => import('./theme-dropdown').then((m) => m.ThemeDropdown), ThemeButton);
