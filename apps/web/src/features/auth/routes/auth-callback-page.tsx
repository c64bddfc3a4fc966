import { MESSAGES, TIMINGS, type TokenPair, type User } from '@hookreel/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { AlertCircleIcon, CheckCircle2Icon, Loader2Icon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { LogoMark } from '@/components/brand';
import { errorDetail } from '@/lib/api-client';
import { meQueryOptions } from '@/lib/auth';
import { session } from '@/lib/session';
import { sleep } from '@/lib/utils';
import { exchangeSignInCode } from '../api/exchange-code';

export const CALLBACK_PENDING_TEXT = 'Completing sign in...';
export const CALLBACK_SUCCESS_TEXT = 'Login successful! Redirecting...';

type Tone = 'pending' | 'success' | 'warning' | 'error';
interface Redirect {
  to: string;
  delayMs: number;
}

/**
 * OAuth return page, registered at /auth/callback and /auth/google/callback (docs/product.md#sign-in).
 * Reads a one-time `code` (or `error`) from the query string and exchanges the code for tokens with a POST
 * that also carries this browser's sign-in cookie. Tokens in the URL are ignored: a link carrying someone
 * else's tokens must not sign this browser in (login CSRF, docs/decisions/071).
 */
export function AuthCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [text, setText] = useState(CALLBACK_PENDING_TEXT);
  const [tone, setTone] = useState<Tone>('pending');
  const [redirect, setRedirect] = useState<Redirect | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;

    const error = params.get('error');
    const code = params.get('code');

    const fail = (status: string, toastText: string) => {
      setText(status);
      setTone('error');
      toast.error(toastText);
      setRedirect({ to: '/login', delayMs: TIMINGS.redirectFailureMs });
    };

    const fetchUser = async (): Promise<User | null> => {
      for (let attempt = 1; attempt <= TIMINGS.loginUserFetchAttempts; attempt++) {
        if (attempt > 1) await sleep(TIMINGS.loginRetryWaitMs);
        try {
          return await queryClient.fetchQuery({ ...meQueryOptions(), staleTime: 0, retry: false });
        } catch {
          if (attempt < TIMINGS.loginUserFetchAttempts) await sleep(TIMINGS.loginFailureWaitMs);
        }
      }
      return null;
    };

    void (async () => {
      try {
        // The code is single use: keep it out of the address bar and the history whatever happens next.
        window.history.replaceState(window.history.state, '', window.location.pathname);
        if (error) return fail(MESSAGES.auth.callbackFailedWith(error), MESSAGES.auth.oauthError(error));
        if (!code) return fail(MESSAGES.auth.callbackNoTokens, MESSAGES.auth.loginFailedRetry);

        let tokens: TokenPair;
        try {
          tokens = await exchangeSignInCode(code);
        } catch (e) {
          const detail = errorDetail(e, MESSAGES.auth.callbackNoTokens);
          return fail(MESSAGES.auth.callbackFailedWith(detail), MESSAGES.auth.oauthError(detail));
        }
        session.setTokens(tokens);
        session.markOAuthLogin();

        const user = await fetchUser();
        const target = session.takeReturnTo() ?? '/projects';
        if (user) {
          setText(CALLBACK_SUCCESS_TEXT);
          setTone('success');
          toast.success(MESSAGES.auth.loginSuccess);
          setRedirect({ to: target, delayMs: TIMINGS.redirectSuccessMs });
        } else {
          setText(MESSAGES.auth.callbackUnconfirmed);
          setTone('warning');
          setRedirect({ to: target, delayMs: TIMINGS.redirectFailureMs });
        }
      } catch {
        fail(MESSAGES.auth.callbackFailed, MESSAGES.auth.loginFailedRetry);
      }
    })();
  }, [params, queryClient]);

  useEffect(() => {
    if (!redirect) return;
    const timer = setTimeout(() => navigate(redirect.to, { replace: true }), redirect.delayMs);
    return () => clearTimeout(timer);
  }, [redirect, navigate]);

  const Icon = tone === 'pending' ? Loader2Icon : tone === 'success' ? CheckCircle2Icon : AlertCircleIcon;
  return (
    <main className="flex min-h-svh flex-col items-center justify-center gap-6 bg-muted/30 px-4 text-center">
      <LogoMark className="size-12" />
      <div className="flex max-w-md items-start gap-3 rounded-xl border bg-card px-5 py-4 shadow-sm">
        <Icon
          aria-hidden="true"
          className={
            tone === 'pending'
              ? 'mt-0.5 size-5 shrink-0 animate-spin text-muted-foreground'
              : tone === 'success'
                ? 'mt-0.5 size-5 shrink-0 text-success'
                : tone === 'warning'
                  ? 'mt-0.5 size-5 shrink-0 text-warning'
                  : 'mt-0.5 size-5 shrink-0 text-destructive'
          }
        />
        <p role="status" aria-live="polite" className="text-sm font-medium">
          {text}
        </p>
      </div>
    </main>
  );
}
