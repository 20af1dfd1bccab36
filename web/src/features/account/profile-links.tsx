import { ExternalLink } from 'lucide-react';

/** A profile's links, in the order every page shows them, and their names. */
export const profileLinkKeys = ['github', 'twitter', 'linkedin', 'website'] as const;
export const profileLinkLabels = {
  github: 'GitHub',
  twitter: 'Twitter',
  linkedin: 'LinkedIn',
  website: 'Website',
} as const;

/** A profile's social links as pills, or the spec's 'No social links added'. */
export function ProfileLinks({
  profile,
}: {
  profile: Partial<Record<(typeof profileLinkKeys)[number], string | null>>;
}) {
  const present = profileLinkKeys.filter((k) => profile[k]);
  if (present.length === 0) return <p className="text-sm text-muted-foreground">No social links added</p>;
  return (
    <ul className="flex flex-wrap gap-2">
      {present.map((key) => (
        <li key={key}>
          <a
            href={profile[key] ?? undefined}
            target="_blank"
            rel="noreferrer noopener"
            className="inline-flex items-center gap-1 rounded-full bg-accent px-3 py-1 text-xs font-medium"
          >
            {profileLinkLabels[key]} <ExternalLink className="size-3" aria-hidden />
          </a>
        </li>
      ))}
    </ul>
  );
}
