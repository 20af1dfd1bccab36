import { knownProjectsIn } from '@shiplog/contracts';

/**
 * What this service knows of other services' facts (`knownProjectsIn`): each project's maker, team
 * workspace and name, and who belongs to each workspace with what role, so a caller reads and changes
 * only the reminders of projects they reach (`reach`, the routes' `project`) and a reminder carries its
 * project's name; and each user's address and whether it is proven, since reminder emails go only to
 * a proven one. Kept by the projects reaction (reactions/project-cascade), which reads these events in
 * the bus's one order with the reminders' own, so a reminder added just as its project is deleted is
 * seen after the deletion.
 */
export const knownProjects = knownProjectsIn('reminders');
