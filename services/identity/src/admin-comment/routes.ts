import { adminCommentSchema, adminCommentUpdateSchema, commentPriorities } from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** An administrators' message as the admin dashboard lists it, and as a post or a change answers it. */
const adminCommentView = z.object({
  id: z.string(),
  message: z.string(),
  priority: z.enum(commentPriorities),
  isActive: z.boolean(),
  createdBy: z.string(),
  adminUsername: z.string(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/**
 * Administrators' messages to every user (answered in `api.ts`). Everyone reads them, so everyone's
 * reads wait for the latest change (`shared`).
 */
export const adminCommentRoutes = declareRoutes({
  // Every signed-in user: the active, unexpired ones.
  'GET /admin/comments': {
    tag: 'Settings',
    summary: 'The administrators’ messages to show',
    access: 'user',
    shared: 'admin-comments',
    answer: z.array(
      z.object({
        id: z.string(),
        message: z.string(),
        priority: z.enum(commentPriorities),
        createdAt: z.string(),
        adminUsername: z.string(),
      }),
    ),
  },
  'GET /admin/comments/all': {
    tag: 'Admin',
    summary: 'Every administrators’ message',
    access: 'admin',
    shared: 'admin-comments',
    answer: z.array(adminCommentView),
  },
  'POST /admin/comments': {
    tag: 'Admin',
    summary: 'Post a message to every user',
    access: 'admin',
    shared: 'admin-comments',
    idempotent: true,
    body: adminCommentSchema,
    status: 201,
    answer: adminCommentView,
  },
  'PUT /admin/comments/:id': {
    tag: 'Admin',
    summary: 'Change a message',
    access: 'admin',
    shared: 'admin-comments',
    body: adminCommentUpdateSchema,
    answer: adminCommentView,
  },
  'DELETE /admin/comments/:id': {
    tag: 'Admin',
    summary: 'Delete a message',
    access: 'admin',
    shared: 'admin-comments',
    status: 204,
  },
});
