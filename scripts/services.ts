/**
 * Every service's definition, by its name in the service directory (`@shiplog/service-kit`): what
 * starts one (the one-process mode, the tests' backend) and what its projections are (a rebuild).
 */
import { activityService } from '@shiplog/activity';
import { billingService } from '@shiplog/billing';
import { chatService } from '@shiplog/chat';
import { identityService } from '@shiplog/identity';
import { integrationsService } from '@shiplog/integrations';
import { monitorsService } from '@shiplog/monitors';
import { projectsService } from '@shiplog/projects';
import { remindersService } from '@shiplog/reminders';
import type { ServiceDefinition, ServiceName } from '@shiplog/service-kit';

export const serviceDefinitions = {
  identity: identityService,
  projects: projectsService,
  reminders: remindersService,
  billing: billingService,
  chat: chatService,
  integrations: integrationsService,
  activity: activityService,
  monitors: monitorsService,
  // biome-ignore lint/suspicious/noExplicitAny: each definition has its own environment type
} satisfies Record<ServiceName, ServiceDefinition<any>>;
