/**
 * The account area: sign-up and sign-in (password, e-mail codes, OIDC), tokens, and the user's own record.
 * Other areas import it only through this file.
 */
export * from './auth.ts';
export {
  EMAIL_SIGN_IN_ERRORS,
  peekSignInLink,
  pendingSignInEmail,
  redeemSignInCode,
  redeemSignInLink,
  sendSignInMail,
} from './email-sign-in.ts';
export * from './users.ts';
export * from './admin-audit.ts';
