import { contactAdminSchema, contactMessageUpdateSchema } from '@shiplog/schemas';
import { declareRoutes } from '@shiplog/service-kit';
import { z } from 'zod';

/** Contact Admin and the administrators' inbox that reads it (answered in `api.ts`). */
export const contactMessageRoutes = declareRoutes({
  'POST /contact-admin': {
    tag: 'Settings',
    summary: 'Send the administrators a message',
    access: 'user',
    limit: 'contactAdmin',
    idempotent: true,
    body: contactAdminSchema,
    status: 201,
    answer: z.object({ id: z.string(), message: z.string() }),
  },
  'GET /admin/contact-messages': {
    tag: 'Admin',
    summary: 'Messages users sent the administrators',
    access: 'admin',
    answer: z.array(
      z.object({
        id: z.string(),
        userId: z.string(),
        username: z.string(),
        subject: z.string(),
        message: z.string(),
        createdAt: z.string(),
        handled: z.boolean(),
        handledAt: z.string().nullable(),
      }),
    ),
  },
  'PUT /admin/contact-messages/:id': {
    tag: 'Admin',
    summary: 'Mark a user’s message handled',
    access: 'admin',
    body: contactMessageUpdateSchema,
    answer: z.object({ id: z.string(), handled: z.boolean() }),
  },
});
