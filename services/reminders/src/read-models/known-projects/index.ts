import { knownProjectsIn } from '@shiplog/contracts';

/**
 * What this service knows of other services' facts (`knownProjectsIn`): each project's owner and name,
 * so a reminder is only added to one's own project and carries its name, and each user's address and
 * whether it is proven, since reminder emails go only to a proven one. Kept by the projects reaction
 * (reactions/project-cascade), which reads these events in the bus's one order with the reminders'
 * own, so a reminder added just as its project is deleted is seen after the deletion.
 */
export const knownProjects = knownProjectsIn('reminders');
