import { arrangeProjects } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { formatDate } from '../../lib/format';
import { type FormOutput, useSchemaForm } from '../../lib/forms';
import { projectsQuery } from '../../lib/queries';
import { Avatar } from '../../ui/avatar';
import { Button } from '../../ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { Label } from '../../ui/input';
import { Select } from '../../ui/select';
import { Skeleton } from '../../ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { TextField } from '../../ui/text-field';
import { Textarea } from '../../ui/textarea';
import { StatusBadge } from '../projects/status-badge';
import { ProfileLinks, profileLinkKeys, profileLinkLabels } from './profile-links';
import { type ProfileView, profileQuery, useUpdateAccountInfo, useUpdateProfile } from './use-account';

export function ProfilePage() {
  const { data: profile, isPending } = useQuery(profileQuery);
  if (isPending || !profile) return <Skeleton className="mx-auto h-40 max-w-3xl" />;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <Card>
        <CardContent className="flex flex-col gap-4 pt-6 sm:flex-row sm:items-start">
          <Avatar username={profile.username} className="size-16 text-xl" />
          <div className="min-w-0 flex-1 space-y-2">
            <h2 className="text-2xl font-semibold" data-testid="profile-name">
              {profile.displayName || profile.username}
            </h2>
            <p className="text-sm text-muted-foreground">{profile.bio || 'No bio provided'}</p>
            <ProfileLinks profile={profile} />
            <PublicPageLink username={profile.username} isPublic={profile.projectVisibility === 'public'} />
          </div>
        </CardContent>
      </Card>
      <Tabs defaultValue="overview">
        <TabsList>
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="edit">Edit Profile</TabsTrigger>
        </TabsList>
        <TabsContent value="overview">
          <Overview />
        </TabsContent>
        <TabsContent value="edit">
          <EditProfile profile={profile} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

/** Where the public page is, or why there is none. */
function PublicPageLink({ username, isPublic }: { username: string; isPublic: boolean }) {
  if (!isPublic)
    return (
      <p className="text-xs text-muted-foreground">
        Your profile is private: it has no public page. Make it public in Settings › Privacy.
      </p>
    );
  const path = `/u/${encodeURIComponent(username)}`;
  return (
    <p className="text-xs text-muted-foreground">
      Your public page:{' '}
      <a href={path} className="font-medium text-primary underline-offset-4 hover:underline">
        {window.location.origin}
        {path}
      </a>
    </p>
  );
}

function Overview() {
  const { data: projects, isPending } = useQuery(projectsQuery);
  if (isPending || !projects) return <Skeleton className="h-40 w-full" />;
  const counts = [
    ['Total projects', projects.length],
    ['Active', projects.filter((p) => p.status === 'development').length],
    ['Completed', projects.filter((p) => p.status === 'deployed').length],
  ] as const;
  const recent = arrangeProjects(projects, { sort: 'newest' }).slice(0, 3);
  return (
    <div className="space-y-4">
      <div className="grid grid-cols-3 gap-3">
        {counts.map(([label, value]) => (
          <Card key={label}>
            <CardContent className="pt-6 text-center">
              <p className="text-2xl font-bold">{value}</p>
              <p className="text-xs text-muted-foreground">{label}</p>
            </CardContent>
          </Card>
        ))}
      </div>
      <Card>
        <CardHeader className="flex-row items-center justify-between">
          <CardTitle>Recent projects</CardTitle>
          <Button variant="link" asChild>
            <Link to="/projects">View All</Link>
          </Button>
        </CardHeader>
        <CardContent>
          {recent.length === 0 ? (
            <div className="space-y-3 text-center">
              <p className="text-sm text-muted-foreground">No projects yet.</p>
              <Button asChild>
                <Link to="/new-project">
                  <Plus /> Create Project
                </Link>
              </Button>
            </div>
          ) : (
            <ul className="divide-y">
              {recent.map((project) => (
                <li key={project.id} className="flex items-center justify-between gap-3 py-2">
                  <Link to="/projects/$id" params={{ id: project.id }} className="truncate font-medium hover:underline">
                    {project.name}
                  </Link>
                  <span className="flex shrink-0 items-center gap-2 text-xs text-muted-foreground">
                    <StatusBadge status={project.status} /> {formatDate(project.createdAt)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

function EditProfile({ profile }: { profile: ProfileView }) {
  const form = useSchemaForm('profileFormSchema', {
    defaultValues: {
      displayName: profile.displayName ?? '',
      bio: profile.bio ?? '',
      github: profile.github ?? '',
      twitter: profile.twitter ?? '',
      linkedin: profile.linkedin ?? '',
      website: profile.website ?? '',
      projectVisibility: profile.projectVisibility,
      email: profile.email ?? '',
      phoneNumber: profile.phoneNumber ?? '',
    },
  });
  const updateProfile = useUpdateProfile('profile');
  const updateAccountInfo = useUpdateAccountInfo('profile');
  // The profile first, then the account's email and phone: each failure says which part did not save.
  const submit = ({ email, phoneNumber, ...fields }: FormOutput<'profileFormSchema'>) =>
    updateProfile.mutate(
      { ...fields, phoneNumber, replitUsername: profile.replitUsername, avatar: profile.avatar },
      { onSuccess: () => updateAccountInfo.mutate({ email, phoneNumber }) },
    );
  const saving = updateProfile.isPending || updateAccountInfo.isPending;
  const { errors } = form.formState;
  return (
    <Card>
      <CardContent className="pt-6">
        <form className="space-y-4" noValidate onSubmit={form.handleSubmit(submit)}>
          <TextField
            id="profile-display-name"
            label="Display name"
            error={errors.displayName?.message}
            {...form.register('displayName')}
          />
          <div className="space-y-2">
            <Label htmlFor="profile-bio">Bio</Label>
            <Textarea id="profile-bio" rows={3} {...form.register('bio')} />
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            {profileLinkKeys.map((key) => (
              <TextField
                key={key}
                id={`profile-${key}`}
                label={profileLinkLabels[key]}
                error={undefined}
                {...form.register(key)}
              />
            ))}
          </div>
          <div className="space-y-2">
            <Label htmlFor="profile-visibility">Project visibility</Label>
            <Select id="profile-visibility" className="w-full" {...form.register('projectVisibility')}>
              <option value="public">Public</option>
              <option value="private">Private</option>
            </Select>
          </div>
          <h3 className="pt-2 font-semibold">Contact</h3>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              id="profile-email"
              label="Email"
              type="email"
              error={errors.email?.message}
              {...form.register('email')}
            />
            <TextField
              id="profile-phone"
              label="Phone"
              type="tel"
              error={errors.phoneNumber?.message}
              {...form.register('phoneNumber')}
            />
          </div>
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving...' : 'Save Profile'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
