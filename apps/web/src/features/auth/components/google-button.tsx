import { MESSAGES } from '@hookreel/contracts';
import { Loader2Icon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { startGoogleLogin } from '../api/google-login';

function GoogleIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="size-5">
      <path
        fill="#4285F4"
        d="M22.56 12.25c0-.78-.07-1.53-.2-2.25H12v4.26h5.92a5.06 5.06 0 0 1-2.2 3.32v2.77h3.57c2.08-1.92 3.27-4.74 3.27-8.1z"
      />
      <path
        fill="#34A853"
        d="M12 23c2.97 0 5.46-.98 7.28-2.66l-3.57-2.77c-.98.66-2.23 1.06-3.71 1.06-2.86 0-5.29-1.93-6.16-4.53H2.18v2.84A11 11 0 0 0 12 23z"
      />
      <path fill="#FBBC05" d="M5.84 14.1a6.6 6.6 0 0 1 0-4.2V7.07H2.18a11 11 0 0 0 0 9.86l3.66-2.84z" />
      <path
        fill="#EA4335"
        d="M12 5.38c1.62 0 3.06.56 4.21 1.64l3.15-3.15A10.55 10.55 0 0 0 12 1 11 11 0 0 0 2.18 7.07l3.66 2.84C6.71 7.31 9.14 5.38 12 5.38z"
      />
    </svg>
  );
}

export function GoogleButton() {
  const [pending, setPending] = useState(false);
  const onClick = () => {
    setPending(true);
    try {
      startGoogleLogin();
    } catch {
      setPending(false);
      toast.error(MESSAGES.auth.googleInitFailed);
    }
  };
  return (
    <Button
      variant="outline"
      size="lg"
      className="w-full gap-3 text-sm font-medium"
      onClick={onClick}
      disabled={pending}
    >
      {pending ? <Loader2Icon className="size-5 animate-spin" aria-hidden="true" /> : <GoogleIcon />}
      Continue with Google
    </Button>
  );
}
