/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** API base path or URL; default '/api' (same origin). */
  readonly VITE_API_BASE?: string;
  /** Support e-mail shown on /support. */
  readonly VITE_SUPPORT_EMAIL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
