import { useQuery } from '@tanstack/react-query';
import { CalendarPlus, CreditCard, ShieldAlert, Users } from 'lucide-react';
import type { ComponentType } from 'react';
import { userQuery } from '../../lib/queries';
import { BackLink } from '../../ui/back-link';
import { Card, CardContent } from '../../ui/card';
import { AdminCommentsCard } from './admin-comments-card';
import { ContactInboxCard } from './contact-inbox-card';
import { adminUserCountsQuery } from './use-admin';
import { UserManagementCard } from './user-management-card';

export function AdminPage() {
  const { data: me, isPending } = useQuery(userQuery);
  if (isPending) return <p className="text-muted-foreground">Loading admin dashboard...</p>;
  if (!me?.isAdmin) {
    return (
      <Card className="mx-auto max-w-lg" data-testid="admin-refused">
        <CardContent className="space-y-4 p-6 text-center">
          <ShieldAlert className="mx-auto size-10 text-destructive" aria-hidden />
          <h2 className="text-xl font-semibold">Administrators only</h2>
          <p className="text-sm text-muted-foreground">
            The Admin Dashboard is for the site's administrators. Your account can do everything else in Shiplog.
          </p>
          <BackLink to="/">Back to Dashboard</BackLink>
        </CardContent>
      </Card>
    );
  }
  return <AdminDashboard />;
}

function AdminDashboard() {
  const counts = useQuery(adminUserCountsQuery);
  if (counts.isPending) return <p className="text-muted-foreground">Loading admin dashboard...</p>;
  return (
    <div className="space-y-6">
      <BackLink to="/">Back to Dashboard</BackLink>
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <Counter title="Total Users" value={counts.data?.totalUsers} icon={Users} />
        <Counter title="Active Subscriptions" value={counts.data?.activeSubscriptions} icon={CreditCard} />
        <Counter title="Trial Users" value={counts.data?.trialUsers} icon={CalendarPlus} />
        <Counter title="Unpaid Users" value={counts.data?.unpaidUsers} icon={ShieldAlert} />
      </div>
      <AdminCommentsCard />
      <UserManagementCard />
      <ContactInboxCard />
    </div>
  );
}

function Counter({
  title,
  value,
  icon: Icon,
}: {
  title: string;
  value: number | undefined;
  icon: ComponentType<{ className?: string }>;
}) {
  return (
    <Card>
      <CardContent className="flex items-center justify-between p-5">
        <div>
          <p className="text-sm font-medium text-muted-foreground">{title}</p>
          <p className="mt-1 text-3xl font-bold" data-testid={`admin-count-${title}`}>
            {value ?? '–'}
          </p>
        </div>
        <Icon className="size-6 text-primary" />
      </CardContent>
    </Card>
  );
}
