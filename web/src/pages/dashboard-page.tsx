import { useQuery } from '@tanstack/react-query';
import { userQuery } from '../lib/queries';

/** The dashboard's shell; its cards, projects and activity arrive with the projects issue. */
export function DashboardPage() {
  const { data: user } = useQuery(userQuery);
  return (
    <section aria-labelledby="welcome" className="space-y-2">
      <h2 id="welcome" className="text-2xl font-semibold tracking-tight">
        Welcome back, {user?.username}
      </h2>
    </section>
  );
}
