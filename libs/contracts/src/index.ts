/**
 * What the services know of one another's domain, in one place apart from the infrastructure kit: the
 * subscription as billing answers it at this moment (the plan gates), and the projects and users
 * other services keep of projects' and identity's events (known projects).
 */
export * from './known-projects.ts';
export * from './plan-gates.ts';
export * from './team-plans.ts';
export * from './workspace-members.ts';
