import { z } from 'zod';
import { ADMIN_USERS_PAGE_SIZE, commentPriorities } from './admin-values.ts';
import type { SubscriptionStatus } from './subscription-values.ts';

/** A row of the admin dashboard's User Management table (`GET /api/admin/users`). */
export interface AdminUser {
  id: string;
  username: string;
  email: string | null;
  subscriptionStatus: SubscriptionStatus | null;
  trialStartDate: string | null;
  trialEndDate: string | null;
  createdAt: string;
}

/** The dashboard's four counters, over every user. */
export interface AdminUserCounts {
  totalUsers: number;
  activeSubscriptions: number;
  trialUsers: number;
  unpaidUsers: number;
}

/** `?q=&page=&limit=`: searched and paged on the server; the total comes in `X-Total-Count`. */
export const adminUsersQuerySchema = z.object({
  q: z.string().trim().max(100, 'Search must be at most 100 characters').optional().default(''),
  page: z.coerce.number({ error: 'page must be a whole number' }).int().min(1).max(100_000).optional().default(1),
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int()
    .min(1)
    .max(100, 'limit must be at most 100')
    .optional()
    .default(ADMIN_USERS_PAGE_SIZE),
});

/** `PUT /api/admin/comments/{id}`: an edit (message and priority), or the Activate / Deactivate toggle. */
export const adminCommentUpdateSchema = z
  .object({
    message: z
      .string({ error: 'Message is required' })
      .trim()
      .min(1, 'Message is required')
      .max(2000, 'Message must be at most 2000 characters')
      .optional(),
    priority: z.enum(commentPriorities, { error: 'Priority must be normal, high or urgent' }).optional(),
    isActive: z.boolean({ error: 'isActive must be true or false' }).optional(),
  })
  .refine((update) => update.message !== undefined || update.isActive !== undefined, {
    message: 'Message is required',
    path: ['message'],
  });

/** An admin comment as the dashboard lists it (`GET /api/admin/comments/all`). */
export interface AdminCommentRow {
  id: string;
  message: string;
  priority: (typeof commentPriorities)[number];
  isActive: boolean;
  createdBy: string;
  adminUsername: string;
  expiresAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A user's message to the administrators, as the admin's inbox lists it. */
export interface ContactMessage {
  id: string;
  userId: string;
  username: string;
  subject: string;
  message: string;
  createdAt: string;
  handled: boolean;
  handledAt: string | null;
}

export const contactMessageUpdateSchema = z.object({
  handled: z.boolean({ error: 'handled must be true or false' }),
});
