import { Link, type LinkProps } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { Button } from './button';

export function BackLink({ children, ...link }: LinkProps & { children: string }) {
  return (
    <Button variant="ghost" size="sm" asChild className="-ml-2">
      <Link {...link}>
        <ArrowLeft /> {children}
      </Link>
    </Button>
  );
}
