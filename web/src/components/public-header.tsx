import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { userQuery } from '../lib/queries';
import { Logo } from './logo';
import { Button } from './ui/button';

/** The public pages' header (a profile, its status page): the logo, and the way in or back. */
export function PublicHeader() {
  const { data: user } = useQuery(userQuery);
  return (
    <header className="border-b bg-card">
      <div className="mx-auto flex max-w-4xl items-center justify-between px-4 py-3">
        <Link to={user ? '/' : '/auth'} aria-label="Shiplog">
          <Logo />
        </Link>
        <Button asChild variant="outline" size="sm">
          {user ? <Link to="/">Dashboard</Link> : <Link to="/auth">Sign in</Link>}
        </Button>
      </div>
    </header>
  );
}
