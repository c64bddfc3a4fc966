import type { ComponentProps } from 'react';
import { Link, type To } from 'react-router';
import { Button } from '@/components/ui/button';

/** A router link drawn as a button. */
export function ButtonLink({ to, children, ...button }: { to: To } & Omit<ComponentProps<typeof Button>, 'asChild'>) {
  return (
    <Button asChild {...button}>
      <Link to={to}>{children}</Link>
    </Button>
  );
}
