/** Runtime configuration of the web app. The API lives under `/api` on the same origin by default. */
const trimSlash = (s: string) => s.replace(/\/+$/, '');

export const config = {
  apiBase: trimSlash(import.meta.env.VITE_API_BASE ?? '/api') || '/api',
  /** Where 'Contact support' writes to (the support screen's mailto link). */
  supportEmail: import.meta.env.VITE_SUPPORT_EMAIL ?? 'support@hookreel.app',
} as const;
