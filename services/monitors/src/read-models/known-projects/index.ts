import { knownProjectsIn } from '@shiplog/service-kit';

/**
 * What this service knows of other services' facts (`knownProjectsIn`): each project's owner and
 * name, so a monitor goes only on one's own project and carries its name, and each user's address
 * and whether it is proven, since alerts are emailed only to a proven one. Kept by the projects
 * reaction (reactions/project-cascade), in the bus's one order with the monitors' own events.
 */
export const knownProjects = knownProjectsIn('monitors');
