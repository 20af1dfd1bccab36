import { isId, type ProjectFilter, type ProjectSort, projectFilters, projectSorts } from '@shiplog/schemas';
import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  notFound,
  Outlet,
  type RouteComponent,
  redirect,
} from '@tanstack/react-router';
import { ReauthHost } from './features/account/reauth-host';
import { askEarly, dropEarly } from './lib/api';
import { dashboardEarlyKey, dashboardVariables, fetchDashboard } from './lib/dashboard-query';
import { lazyPart } from './lib/on-demand';
import { userQuery } from './lib/queries';
import { AppShell } from './shell/app-shell';
import { ErrorPage } from './shell/error-page';
import { FullPageSpinner } from './ui/full-page-spinner';
import { Toaster } from './ui/toast';

// Each page is its own chunk, loaded when first visited, and so is the signed-in shell (/auth has none).
// Not-found pages are rare: they load when shown. The error page stays in the entry, since a failed
// chunk download is one of the errors it shows.
const NotFoundPage = lazyPart(() => import('./shell/not-found-page'), 'NotFoundPage');
const ProjectNotFound = lazyPart(() => import('./features/projects/project-load-states'), 'ProjectNotFound');
const ActivitiesPage = lazyPart(() => import('./features/activity/activities-page'), 'ActivitiesPage');
const DashboardPage = lazyPart(() => import('./features/dashboard/dashboard-page'), 'DashboardPage');
const EditProjectPage = lazyPart(() => import('./features/projects/edit-project-page'), 'EditProjectPage');
const NewProjectPage = lazyPart(() => import('./features/projects/new-project-page'), 'NewProjectPage');
const ProfilePage = lazyPart(() => import('./features/account/profile-page'), 'ProfilePage');
const ProjectDetailPage = lazyPart(() => import('./features/projects/project-detail-page'), 'ProjectDetailPage');
const ProjectsPage = lazyPart(() => import('./features/projects/projects-page'), 'ProjectsPage');
/** The public pages (a profile, its status page): one module, one lazy part. */
const PublicPage = lazyPart(() => import('./features/public/public-profile-page'), 'PublicPage');
const ReminderCompletePage = lazyPart(
  () => import('./features/reminders/reminder-complete-page'),
  'ReminderCompletePage',
);
const VerifyEmailPage = lazyPart(() => import('./features/account/verify-email-page'), 'VerifyEmailPage');
const RemindersPage = lazyPart(() => import('./features/reminders/reminders-page'), 'RemindersPage');
const SettingsPage = lazyPart(() => import('./features/account/settings-page'), 'SettingsPage');
const AuthPage = lazyPart(() => import('./features/account/auth-page'), 'AuthPage');
const ComingSoonPage = lazyPart(() => import('./shell/coming-soon-page'), 'ComingSoonPage');
const SubscriptionPage = lazyPart(() => import('./features/billing/subscription-page'), 'SubscriptionPage');
const AdminPage = lazyPart(() => import('./features/admin/admin-page'), 'AdminPage');
const ChatPage = lazyPart(() => import('./features/chat/chat-page'), 'ChatPage');
const IntegrationsPage = lazyPart(() => import('./features/integrations/integrations-page'), 'IntegrationsPage');
const ApiReferencePage = lazyPart(() => import('./features/api-reference/api-reference-page'), 'ApiReferencePage');
const WorkspacesPage = lazyPart(() => import('./features/workspaces/workspaces-page'), 'WorkspacesPage');
const WorkspacePage = lazyPart(() => import('./features/workspaces/workspace-page'), 'WorkspacePage');
const WorkspaceNotFound = lazyPart(() => import('./features/workspaces/workspace-page'), 'WorkspaceNotFound');
const InvitePage = lazyPart(() => import('./features/workspaces/invite-page'), 'InvitePage');

/**
 * Search params are read by hand, not with zod: the router is in every page's first load, and zod
 * loads only with the forms that need it. Whatever is not one of the expected values is dropped.
 */
const oneOf = <T extends string>(values: readonly T[], value: unknown): T | undefined =>
  values.includes(value as T) ? (value as T) : undefined;
/** The project lists' space (features/projects/spaces.tsx): `personal`, or a workspace's id. */
const space = (value: unknown): string | undefined => (value === 'personal' || isId(value) ? value : undefined);
/** `?success=true` arrives parsed as JSON (a boolean); anything else as text. */
const flag = (value: unknown): boolean | string | undefined =>
  typeof value === 'boolean' || typeof value === 'string' ? value : undefined;

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
  interface StaticDataRouteOption {
    /** The page title the header shows. */
    title?: string;
  }
}

const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: () => (
    <>
      <Outlet />
      <Toaster />
      <ReauthHost />
    </>
  ),
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});

const authRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/auth',
  validateSearch: (search: Record<string, unknown>): { redirect?: string; tab?: 'register' } => ({
    redirect: typeof search.redirect === 'string' && search.redirect.startsWith('/') ? search.redirect : undefined,
    // The tab to open on: an invite's "Create account" opens Register.
    tab: oneOf(['register'], search.tab),
  }),
  beforeLoad: async ({ context, search }) => {
    // Signed-in visitors have nothing to do here.
    const user = await context.queryClient.ensureQueryData(userQuery);
    if (user) throw redirect({ to: search.redirect ?? '/' });
  },
  pendingComponent: FullPageSpinner,
  component: AuthPage,
});

/** Every protected page: the spinner while the current user loads, then the page or /auth. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context, location }) => {
    const user = await context.queryClient.ensureQueryData(userQuery);
    if (!user) throw redirect({ to: '/auth', search: { redirect: location.href === '/' ? undefined : location.href } });
    return { user };
  },
  pendingComponent: FullPageSpinner,
  component: AppShell,
});

/** urql and the dashboard's query, once loaded. */
let graphql: typeof import('./lib/graphql') | undefined;

const dashboard = <TPath extends '/' | '/dashboard'>(path: TPath) =>
  createRoute({
    getParentRoute: () => appRoute,
    path,
    staticData: { title: 'Dashboard' },
    validateSearch: (
      search: Record<string, unknown>,
    ): {
      status?: ProjectFilter;
      sort?: ProjectSort;
      space?: string;
      success?: boolean | string;
      cancelled?: boolean | string;
    } => ({
      // The project list's filter, sort and space, so a reload or a shared link keeps them. The space
      // filters what the page lists, not what it asks for (`dashboardVariables`).
      status: oneOf(projectFilters, search.status),
      sort: oneOf(projectSorts, search.sort),
      space: space(search.space),
      // Return from the payment provider: ?success=true or ?cancelled=true.
      success: flag(search.success),
      cancelled: flag(search.cancelled),
    }),
    loaderDeps: ({ search }) => dashboardVariables(search),
    // The dashboard's GraphQL query starts with the page's code, not after the page has rendered
    // (its LCP). On the app's first visit it is sent before anything else loads (the page's
    // chunks, urql), by index.html when the visit is to the dashboard itself, and urql takes its
    // answer. Pointing at a link loads only the code.
    beforeLoad: ({ search, preload }) => {
      if (!preload && !graphql) {
        const variables = dashboardVariables(search);
        askEarly(dashboardEarlyKey(variables), () => fetchDashboard(variables));
      }
    },
    // The first visit waits for the answer, so the page renders once, with its data (its LCP); a later
    // one shows what the cache has at once, and asks again when a change has made it stale.
    loader: async ({ deps, preload, context }) => {
      if (preload) return;
      graphql ??= await import('./lib/graphql');
      await context.queryClient.ensureQueryData(graphql.dashboardQuery(deps));
    },
    preloadStaleTime: 0,
    component: DashboardPage,
  });

const projectsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects',
  staticData: { title: 'My Projects' },
  validateSearch: (
    search: Record<string, unknown>,
  ): { q?: string; status?: ProjectFilter; sort?: ProjectSort; space?: string } => ({
    q: typeof search.q === 'string' ? search.q : undefined,
    status: oneOf(projectFilters, search.status),
    sort: oneOf(projectSorts, search.sort),
    space: space(search.space),
  }),
  component: ProjectsPage,
});

const page = <TPath extends string>(path: TPath, title: string | undefined, component: RouteComponent) =>
  createRoute({ getParentRoute: () => appRoute, path, staticData: { title }, component });

/**
 * A project page's `$id` is parsed with the services' id schema. A path whose id is not an id never
 * reaches the page or the API: it is the project-not-found state, as a missing project is.
 */
const projectPage = {
  params: {
    parse: ({ id }: { id: string }) => {
      if (!isId(id)) throw notFound();
      return { id };
    },
    stringify: ({ id }: { id: string }) => ({ id }),
  },
  notFoundComponent: ProjectNotFound,
};
const projectRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/$id',
  staticData: { title: 'Project' },
  component: ProjectDetailPage,
  ...projectPage,
});
const editProjectRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/edit/$id',
  staticData: { title: 'Edit Project' },
  component: EditProjectPage,
  ...projectPage,
});

/** A team workspace: an id that is not one is the workspace-not-found state, as a missing workspace is. */
const workspaceRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/workspaces/$id',
  staticData: { title: 'Team workspace' },
  component: WorkspacePage,
  params: projectPage.params,
  notFoundComponent: WorkspaceNotFound,
});

// The services refuse anyone else; the page says so instead of breaking.
const adminRoute = page('/admin', 'Admin Dashboard', AdminPage);

// Reached from an email: it checks the session itself, to say 'Please log in' and come back after.
const reminderCompleteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/reminders/$id/complete',
  component: ReminderCompletePage,
});

// Reached from the email that proves an address: signed in or not, the link's secret is enough.
const verifyEmailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/verify-email',
  component: VerifyEmailPage,
});

// An emailed invite's link: signed out it says what the invite is for, and comes back here after
// signing in or registering; signed in it accepts. The link's secret is in its `#` part.
const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invite/$id',
  component: InvitePage,
});

// A builder's public page: no session needed, and none of the signed-in shell.
const publicProfileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/u/$username',
  component: PublicPage,
});

// A builder's status page, all projects or one (`?project=`, read by the page): readable signed out.
const publicStatusRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/u/$username/status',
  component: PublicPage,
});

// A public project's changelog, with its Atom feed: readable signed out.
const changelogRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/u/$username/$projectId/changelog',
  component: PublicPage,
});

// A team workspace's status page, by the slug its admins chose: readable signed out.
const teamStatusRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/w/$slug/status',
  component: PublicPage,
});

const routeTree = rootRoute.addChildren([
  authRoute,
  reminderCompleteRoute,
  verifyEmailRoute,
  inviteRoute,
  publicProfileRoute,
  publicStatusRoute,
  changelogRoute,
  teamStatusRoute,
  appRoute.addChildren([
    dashboard('/'),
    dashboard('/dashboard'),
    projectsRoute,
    page('/new-project', 'Create New Project', NewProjectPage),
    projectRoute,
    editProjectRoute,
    page('/activities', 'Activity History', ActivitiesPage),
    page('/reminders', 'Reminders', RemindersPage),
    page('/profile', 'Profile', ProfilePage),
    page('/settings', 'Settings', SettingsPage),
    page('/api-reference', 'API Reference', ApiReferencePage),
    page('/replit', 'Replit', ComingSoonPage),
    page('/subscription', 'Subscription', SubscriptionPage),
    page('/chat', 'AI Assistant', ChatPage),
    page('/workspaces', 'Team workspaces', WorkspacesPage),
    workspaceRoute,
    page('/integrations', 'External API', IntegrationsPage),
    page('/integration-config', 'External API', IntegrationsPage),
    adminRoute,
  ]),
]);

export function createAppRouter(queryClient: QueryClient) {
  const router = createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    defaultPendingMs: 0,
    defaultPendingMinMs: 0,
    scrollRestoration: true,
  });
  // What was asked for early and not read by the time a visit has loaded (the visit went elsewhere)
  // is dropped: a later visit asks again rather than show an old answer.
  router.subscribe('onResolved', dropEarly);
  return router;
}
