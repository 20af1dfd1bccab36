import { Link, useNavigate } from '@tanstack/react-router';
import { Code2, ExternalLink } from 'lucide-react';
import { useEffect } from 'react';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';

/** How long the page stays before it returns to the dashboard (spec/account.md §9). */
const COMING_SOON_REDIRECT_MS = 5000;

const planned = [
  'View your Replit projects',
  'Create new Replit projects',
  'Fork projects with one click',
  'Track them alongside your other projects',
];

/** The coding-platform integration, not built yet (spec/account.md §2): what is planned, then back to /. */
export function ComingSoonPage() {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => void navigate({ to: '/' }), COMING_SOON_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [navigate]);
  return (
    <Card className="mx-auto max-w-xl">
      <CardHeader className="items-center text-center">
        <span className="mb-2 flex size-12 items-center justify-center rounded-full bg-accent text-accent-foreground">
          <Code2 className="size-6" aria-hidden />
        </span>
        <CardTitle>Coming Soon</CardTitle>
        <CardDescription>The Replit integration is on its way. Soon you will be able to:</CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <ul className="mx-auto max-w-sm list-disc space-y-1 pl-5 text-sm">
          {planned.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
        <p className="text-center text-xs text-muted-foreground">
          You will be taken back to the dashboard in 5 seconds.
        </p>
        <div className="flex flex-wrap justify-center gap-3">
          <Button asChild>
            <Link to="/">Return to Dashboard</Link>
          </Button>
          <Button variant="outline" asChild>
            <a href="https://replit.com" target="_blank" rel="noopener noreferrer">
              Visit Replit <ExternalLink aria-hidden />
            </a>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
