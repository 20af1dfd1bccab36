import { adminCommentRoutes } from './admin-comment/routes.ts';
import { contactMessageRoutes } from './contact-message/routes.ts';
import { adminUserRoutes, apiTokenRoutes, emailVerificationRoutes, userRoutes } from './user/routes.ts';
import { workspaceRoutes } from './workspace/routes.ts';

/** Every route identity answers, as declared beside its handler: what the gateway serves and documents. */
export const identityRoutes = {
  ...userRoutes,
  ...emailVerificationRoutes,
  ...adminUserRoutes,
  ...apiTokenRoutes,
  ...adminCommentRoutes,
  ...contactMessageRoutes,
  ...workspaceRoutes,
};
