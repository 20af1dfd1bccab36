import type { RegisterForm } from '@shiplog/schemas';
import { useSearch } from '@tanstack/react-router';
import { Bot, FolderKanban, UserCircle } from 'lucide-react';
import { useSchemaForm } from '../../lib/forms';
import { useDocumentTitle } from '../../lib/page-title';
import { showServerFieldErrors } from '../../lib/server-errors';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Logo } from '../../ui/logo';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { TextField } from '../../ui/text-field';
import { useLogin, useRegister } from './use-sign-in';

export function AuthPage() {
  const { redirect, tab } = useSearch({ from: '/auth' });
  useDocumentTitle('Sign in');
  return (
    <main className="grid min-h-screen lg:grid-cols-2">
      {/* Top-aligned, not centred: the Register form is taller than Login, and a centred column would
          move the tabs under the pointer when switching. */}
      <section className="flex justify-center p-6 sm:pt-[12vh]">
        <div className="w-full max-w-md space-y-6">
          <h1 className="sr-only">Sign in to Shiplog</h1>
          <Logo />
          <Tabs defaultValue={tab ?? 'login'}>
            <TabsList className="grid w-full grid-cols-2">
              <TabsTrigger value="login">Login</TabsTrigger>
              <TabsTrigger value="register">Register</TabsTrigger>
            </TabsList>
            <TabsContent value="login">
              <LoginForm redirectTo={redirect} />
            </TabsContent>
            <TabsContent value="register">
              <RegisterFormCard redirectTo={redirect} />
            </TabsContent>
          </Tabs>
        </div>
      </section>
      <section
        className="flex flex-col justify-center gap-6 bg-primary p-6 text-primary-foreground sm:p-12"
        aria-label="About Shiplog"
      >
        <div>
          <h2 className="text-3xl font-bold tracking-tight">Ship your side projects, one log at a time</h2>
          <p className="mt-2">Everything you build, deploy and release, tracked in one place.</p>
        </div>
        <MarketingCard icon={FolderKanban} title="Project tracking">
          Status, a five-step progress checklist, costs, links, reminders and a timeline of every backup, deployment and
          release.
        </MarketingCard>
        <MarketingCard icon={UserCircle} title="Developer profile">
          A public profile of what you build, with your links and the projects you choose to show.
        </MarketingCard>
        <MarketingCard icon={Bot} title="AI assistant">
          Free: 3 messages a day with limited memory. Pro: unlimited messages with full conversation memory.
        </MarketingCard>
      </section>
    </main>
  );
}

function MarketingCard({ icon: Icon, title, children }: { icon: typeof Bot; title: string; children: string }) {
  return (
    <div className="flex gap-4 rounded-xl border border-primary-foreground/25 p-5">
      <Icon className="mt-0.5 size-6 shrink-0" aria-hidden />
      <div>
        <h3 className="font-semibold">{title}</h3>
        <p className="text-sm">{children}</p>
      </div>
    </div>
  );
}

function LoginForm({ redirectTo }: { redirectTo: string | undefined }) {
  const login = useLogin(redirectTo);
  const form = useSchemaForm('loginSchema', {
    defaultValues: { username: '', password: '' },
  });
  const { errors } = form.formState;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Welcome back</CardTitle>
        <CardDescription>Sign in to your projects.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="space-y-4" noValidate onSubmit={form.handleSubmit((values) => login.mutate(values))}>
          <TextField
            id="login-username"
            label="Username"
            autoComplete="username"
            error={errors.username?.message}
            {...form.register('username')}
          />
          <TextField
            id="login-password"
            label="Password"
            type="password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...form.register('password')}
          />
          {login.error && !login.isPending && (
            // Where the user is looking, beside the toast: the form stays as typed, to correct and resend.
            <p role="alert" className="text-sm font-medium text-destructive" data-testid="login-error">
              {login.error.message.replace(/^\d+: /, '')}
            </p>
          )}
          <Button type="submit" className="w-full" disabled={login.isPending}>
            {login.isPending ? 'Signing in...' : 'Login'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

function RegisterFormCard({ redirectTo }: { redirectTo: string | undefined }) {
  const register = useRegister(redirectTo);
  const form = useSchemaForm('registerFormSchema', {
    defaultValues: { username: '', email: '', password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const field = (name: keyof RegisterForm, label: string, type: string, autoComplete: string) => (
    <TextField
      id={`register-${name}`}
      label={label}
      type={type}
      autoComplete={autoComplete}
      error={errors[name]?.message}
      {...form.register(name)}
    />
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>Create your account</CardTitle>
        <CardDescription>
          Free to start, with a 30-day trial. Quick Update, export and the unlimited assistant come with Pro.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="space-y-4"
          noValidate
          onSubmit={form.handleSubmit(({ confirmPassword: _confirm, email, ...values }) =>
            register.mutate(
              { ...values, ...(email ? { email } : {}) },
              { onError: (error) => showServerFieldErrors(error, form.setError, ['username', 'email', 'password']) },
            ),
          )}
        >
          {field('username', 'Username', 'text', 'username')}
          {field('email', 'Email (optional)', 'email', 'email')}
          {field('password', 'Password', 'password', 'new-password')}
          {field('confirmPassword', 'Confirm password', 'password', 'new-password')}
          <Button type="submit" className="w-full" disabled={register.isPending}>
            {register.isPending ? 'Creating account...' : 'Register'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
