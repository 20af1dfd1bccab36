import { Sheet, SheetContent, SheetDescription, SheetTitle } from '../ui/sheet';
import type { ShellUser } from './navigation';
import { SidebarContents } from './sidebar';

export function MobileMenu({
  open,
  onOpenChange,
  user,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  user: ShellUser;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent aria-label="Menu">
        <SheetTitle className="sr-only">Menu</SheetTitle>
        <SheetDescription className="sr-only">Navigate Shiplog</SheetDescription>
        <SidebarContents variant="mobile" user={user} onNavigate={() => onOpenChange(false)} />
      </SheetContent>
    </Sheet>
  );
}
