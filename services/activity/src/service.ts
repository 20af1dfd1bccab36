import { join } from 'node:path';
import { deleteUserRows, type ServiceDefinition } from '@shiplog/service-kit';
import { type ActivityEnv, activityEnv } from './env.ts';
import { activityApi } from './read-models/timeline/api.ts';
import { timelineProjection } from './read-models/timeline/index.ts';

/** activity: the timeline and the dashboard counters, both projections of other services' events. */
export const activityService: ServiceDefinition<ActivityEnv> = {
  name: 'activity',
  env: activityEnv,
  migrationsDir: join(import.meta.dirname, '..', 'migrations'),
  projections: [timelineProjection],
  forgetUser: deleteUserRows('activity.activities', 'activity.project_stats'),
  setup(context) {
    return { routes: activityApi(context).routes };
  },
};
