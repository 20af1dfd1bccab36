import { projectVisibilities } from '@shiplog/schemas';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { cn } from '../../lib/class-names';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { profileQuery, useUpdateProfile } from './use-account';

export function PrivacyCard() {
  const { data: profile } = useQuery(profileQuery);
  // Shown at once; put back if the save fails.
  const [choice, setChoice] = useState<(typeof projectVisibilities)[number] | null>(null);
  const selected = choice ?? profile?.projectVisibility;
  const update = useUpdateProfile('privacy');
  const saveVisibility = (projectVisibility: (typeof projectVisibilities)[number]) => {
    const { email: _email, isReplitLinked: _linked, username: _username, ...current } = profile!;
    update.mutate({ ...current, projectVisibility }, { onError: () => setChoice(null) });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Privacy</CardTitle>
        <CardDescription>Who can see your projects on your profile.</CardDescription>
      </CardHeader>
      <CardContent>
        <fieldset className="space-y-2" disabled={!profile}>
          <legend className="sr-only">Project visibility</legend>
          {projectVisibilities.map((value) => (
            <label
              key={value}
              className={cn(
                'flex cursor-pointer items-center gap-3 rounded-lg border p-3',
                selected === value && 'border-primary bg-accent',
              )}
            >
              <input
                type="radio"
                name="visibility"
                value={value}
                checked={selected === value}
                onChange={() => {
                  setChoice(value);
                  saveVisibility(value);
                }}
              />
              <span>
                <span className="block text-sm font-medium">{value === 'public' ? 'Public' : 'Private'}</span>
                <span className="block text-xs text-muted-foreground">
                  {value === 'public'
                    ? 'Anyone with your profile link sees your public projects.'
                    : 'Only you see your projects.'}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
      </CardContent>
    </Card>
  );
}
