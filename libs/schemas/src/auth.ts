import { z } from 'zod';

/**
 * Sign-in and registration input, shared by the web forms and the identity service, with the messages
 * of spec/core.md §5 word for word.
 */
export const loginSchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required'),
  password: z
    .string({ error: 'Password must be at least 6 characters' })
    .min(6, 'Password must be at least 6 characters'),
});

const email = z.union([z.literal(''), z.email('Invalid email address')]);

export const registerSchema = z.object({
  username: z
    .string({ error: 'Username must be at least 3 characters' })
    .trim()
    .min(3, 'Username must be at least 3 characters')
    .max(50, 'Username must be at most 50 characters'),
  password: z
    .string({ error: 'Password must be at least 6 characters' })
    .min(6, 'Password must be at least 6 characters')
    .max(200, 'Password must be at most 200 characters'),
  email: email.nullish(),
});

/** The Register tab: the API shape plus a confirmation that is checked here and never sent. */
export const registerFormSchema = z
  .object({
    username: registerSchema.shape.username,
    password: registerSchema.shape.password,
    confirmPassword: z.string().min(6, 'Password confirmation is required'),
    email,
  })
  .refine((form) => form.password === form.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });

export type LoginInput = z.infer<typeof loginSchema>;
export type RegisterInput = z.infer<typeof registerSchema>;
export type RegisterForm = z.infer<typeof registerFormSchema>;
