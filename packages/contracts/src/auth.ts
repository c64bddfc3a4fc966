import { z } from 'zod';
import { LIMITS } from './constants.ts';
import { VALIDATION } from './messages.ts';

export const Email = z.string().trim().toLowerCase().pipe(z.email(VALIDATION.email));

export const LoginRequest = z.object({
  email: Email,
  password: z.string().min(LIMITS.passwordMin, VALIDATION.passwordMin).max(200),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

/**
 * The register call takes {email, password}. Under 6 characters keeps its own message; new passwords need 10
 * (the server also refuses common ones, which needs a dictionary too big for this package).
 */
export const RegisterRequest = z.object({
  email: Email,
  password: z
    .string()
    .min(LIMITS.passwordMin, VALIDATION.passwordMin)
    .min(LIMITS.passwordNewMin, VALIDATION.passwordNewMin)
    .max(200),
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

export const RegisterForm = RegisterRequest.extend({ confirmPassword: z.string() }).refine(
  (v) => v.password === v.confirmPassword,
  { message: VALIDATION.passwordsMismatch, path: ['confirmPassword'] },
);

export const PromptForm = z.object({ prompt: z.string().min(LIMITS.promptMin, VALIDATION.promptMin) });

export const TokenPair = z.object({ access_token: z.string(), refresh_token: z.string() });
export type TokenPair = z.infer<typeof TokenPair>;

export const RefreshRequest = z.object({ refresh_token: z.string().min(1).max(512) });
export const LogoutRequest = z.object({ refresh_token: z.string().max(512).optional() });

/** The one-time code the sign-in callback page exchanges (with the browser's sign-in cookie) for tokens. */
export const ExchangeRequest = z.object({ code: z.string().min(1).max(200) });

/** A short-lived ticket that opens the job event stream (EventSource cannot send an Authorization header). */
export const EventsTicket = z.object({ ticket: z.string(), expires_in: z.number().int() });

export const GoogleLoginQuery = z.object({ redirect_uri: z.string().max(2048).optional() });

export const User = z.object({
  id: z.number().int(),
  email: z.string(),
  credits: z.number(),
  notify: z.boolean(),
  is_admin: z.boolean(),
  created_at: z.string(),
});
export type User = z.infer<typeof User>;

export const NotifyRequest = z.object({ notify: z.boolean() });
export const NotifyResponse = z.object({ notify: z.boolean() });
