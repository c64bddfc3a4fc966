import type { ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { Logo } from '@/components/brand';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';
import { useAuth } from '@/lib/auth';
import { GoogleButton } from './google-button';

/** The Google-only login/register card (docs/product.md#sign-in). No e-mail/password form is rendered. */
export function AuthCard({ title, description, footer }: { title: string; description: string; footer: ReactNode }) {
  const { status } = useAuth();
  if (status === 'authenticated') return <Navigate to="/projects" replace />;

  return (
    <div className="relative flex min-h-svh flex-col items-center justify-center overflow-hidden bg-muted/30 px-4 py-12">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-40 left-1/2 h-[28rem] w-[48rem] -translate-x-1/2 rounded-full bg-brand-gradient opacity-15 blur-3xl"
      />
      <Link
        to="/landing"
        className="relative mb-8 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <Logo />
      </Link>
      <main className="relative w-full max-w-sm">
        <Card className="shadow-lg">
          <CardHeader className="text-center">
            <h1 data-slot="card-title" className="text-2xl leading-tight font-semibold">
              {title}
            </h1>
            <CardDescription>{description}</CardDescription>
          </CardHeader>
          <CardContent>
            <GoogleButton />
          </CardContent>
          <CardFooter className="justify-center text-sm text-muted-foreground">{footer}</CardFooter>
        </Card>
        <p className="mt-6 text-center text-xs text-muted-foreground">
          By continuing you agree to use Hookreel responsibly and only with content you have rights to.
        </p>
      </main>
    </div>
  );
}
