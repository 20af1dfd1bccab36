import { describe, expect, it } from 'vitest';
import { loginSchema, registerFormSchema, registerSchema } from './auth.ts';

// The first message per field, as the form shows it.
const messages = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[issue.path.join('.')] ??= issue.message;
  return out;
};

describe('auth schemas', () => {
  it('login: username required, password at least 6', () => {
    expect(messages(loginSchema.safeParse({ username: '', password: '123' }))).toEqual({
      username: 'Username is required',
      password: 'Password must be at least 6 characters',
    });
    expect(messages(loginSchema.safeParse({}))).toEqual({
      username: 'Username is required',
      password: 'Password must be at least 6 characters',
    });
    expect(loginSchema.safeParse({ username: 'ada', password: '123456' }).success).toBe(true);
  });

  it('register: username at least 3, valid or empty email', () => {
    expect(messages(registerSchema.safeParse({ username: 'ab', password: '123456', email: 'nope' }))).toEqual({
      username: 'Username must be at least 3 characters',
      email: 'Invalid email address',
    });
    expect(registerSchema.safeParse({ username: 'ada', password: '123456', email: '' }).success).toBe(true);
    expect(registerSchema.safeParse({ username: 'ada', password: '123456' }).success).toBe(true);
  });

  it('register form: confirmation required and matching, reported on confirmPassword', () => {
    const base = { username: 'ada', password: '123456', email: '' };
    expect(messages(registerFormSchema.safeParse({ ...base, confirmPassword: '' }))).toEqual({
      confirmPassword: 'Password confirmation is required',
    });
    expect(messages(registerFormSchema.safeParse({ ...base, confirmPassword: '1234567' }))).toEqual({
      confirmPassword: 'Passwords do not match',
    });
  });
});
