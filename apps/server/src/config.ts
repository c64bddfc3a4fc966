import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import {
  BILLING_MODES,
  DEFAULT_REALISTIC_CREDITS_PER_SECOND,
  DEFAULT_TRIAL_CREDITS,
  INTEGRATION_LIMITS,
} from '@hookreel/contracts';
import { z } from 'zod';

/** Every setting comes from the environment; the embedded default needs none of them. */
const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default(path.resolve(process.cwd(), 'data')),
  /** Piper voices an operator adds (`.onnx` + `.onnx.json`); DATA_DIR/voices by default (decision 211). */
  VOICES_DIR: z.string().optional(),
  /** Origin users reach the app at; used for OAuth redirects and e-mail links. Defaults to http://localhost:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  /** Whether this process runs jobs. Defaults to yes in embedded mode, no when REDIS_URL hands them to workers. */
  RUN_JOBS: z.enum(['true', 'false']).optional(),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  /** Slots of the background lane (webhook deliveries), apart from WORKER_CONCURRENCY's render slots. */
  BACKGROUND_JOB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  JWT_SECRET: z.string().min(32).optional(),
  ACCESS_TOKEN_TTL_SEC: z.coerce.number().int().min(10).max(900).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  ADMIN_EMAILS: z.string().default(''),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: z.string().url().default('https://accounts.google.com'),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Hookreel <no-reply@hookreel.local>'),
  S3_BUCKET: z.string().optional(),
  S3_ENDPOINT: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  WEB_DIST: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  /** Accounts one client (IP address) may register per hour. */
  REGISTER_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  /** Sign-in and verification mails one client may ask for per 15 minutes (each address also gets at most 5). */
  SIGN_IN_MAIL_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
  /**
   * Which proxies' X-Forwarded-For to believe: off by default (the client's own address counts), a hop count,
   * or a comma-separated list of proxy addresses/CIDR ranges (Fastify's trustProxy).
   */
  TRUST_PROXY: z.string().default('false'),
  /** Credits of the free trial (docs/billing.md); the default buys one hook pack and one product-in-hand video. */
  TRIAL_CREDITS: z.coerce.number().min(0).max(100_000).multipleOf(0.01).default(DEFAULT_TRIAL_CREDITS),
  /**
   * Realistic videos: credits per second of provider video on top of a Draft video's price (docs/providers.md).
   * Set it from the talking-actor provider's price per second and what one credit sells for.
   */
  REALISTIC_CREDITS_PER_SECOND: z.coerce.number().min(0).max(100).default(DEFAULT_REALISTIC_CREDITS_PER_SECOND),
  /**
   * What the providers' units cost in US dollars, for the job and admin reports (decision 177). Unset: the list
   * price of the configured model (services/billing/provider-prices.ts). PROVIDER_PRICES_AS_OF dates the operator's.
   */
  PROVIDER_USD_PER_IMAGE: z.coerce.number().min(0).max(100).optional(),
  PROVIDER_USD_PER_1K_CHARACTERS: z.coerce.number().min(0).max(100).optional(),
  PROVIDER_USD_PER_SECOND: z.coerce.number().min(0).max(100).optional(),
  PROVIDER_PRICES_AS_OF: z.string().trim().min(1).max(40).optional(),
  /** Read here only to pick the list price of the model the engine is set to (docs/providers.md). */
  FAL_AVATAR_MODEL: z.string().optional(),
  OPENAI_EDIT_QUALITY: z.string().optional(),
  /**
   * off by default: purchases exist only when an operator chooses them. demo grants credits without payment, for
   * trying the product on a closed server; stripe takes real money (decision 173).
   */
  BILLING: z.enum(BILLING_MODES).default('off'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Where the Stripe SDK sends requests; for tests and stripe-mock only (http://127.0.0.1:12111). */
  STRIPE_API_URL: z.string().url().optional(),
  /** Uploads (every multipart route together) per user per minute. */
  UPLOAD_RATE_LIMIT: z.coerce.number().int().min(1).default(60),
  /** Webhook "Send test" clicks per user per minute. */
  WEBHOOK_TEST_RATE_LIMIT: z.coerce.number().int().min(1).default(5),
  /** Requests per minute of one personal API key, across every route. */
  API_KEY_RATE_LIMIT: z.coerce.number().int().min(1).default(INTEGRATION_LIMITS.apiKeyRequestsPerMinute),
  /**
   * FOR TESTS ONLY: exact origins (comma-separated, e.g. `http://127.0.0.1:4517`) that webhooks may reach
   * although they are not public https addresses, so an end-to-end test can receive deliveries on a local fake.
   * Refused when NODE_ENV is production; the server warns at start whenever it is set (decision 132).
   */
  UNSAFE_WEBHOOK_TEST_ORIGINS: z.string().default(''),
});

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${issues}`);
  }
  const e = parsed.data;
  // Half a Google configuration used to leave the built-in provider on without a word: refuse to start instead.
  if (Boolean(e.GOOGLE_CLIENT_ID) !== Boolean(e.GOOGLE_CLIENT_SECRET)) {
    const [set, missing] = e.GOOGLE_CLIENT_ID
      ? ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET']
      : ['GOOGLE_CLIENT_SECRET', 'GOOGLE_CLIENT_ID'];
    throw new Error(
      `Invalid configuration: ${set} is set but ${missing} is not. Set both for Google sign-in, or neither for the built-in e-mail sign-in.`,
    );
  }
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  const dataDir = path.resolve(e.DATA_DIR);
  // Only this process's user may read what it keeps (database, secret, uploads, mail): 0700 when we create it.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const databaseUrl = e.DATABASE_URL ?? `sqlite://${path.join(dataDir, 'hookreel.db')}`;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    filesDir: path.join(dataDir, 'files'),
    workDir: path.join(dataDir, 'work'),
    outboxDir: path.join(dataDir, 'outbox'),
    voicesDir: path.resolve(e.VOICES_DIR ?? path.join(dataDir, 'voices')),
    voiceSamplesDir: path.join(dataDir, 'voice-samples'),
    publicUrl,
    databaseUrl,
    redisUrl: e.REDIS_URL,
    runJobs: e.RUN_JOBS ? e.RUN_JOBS === 'true' : !e.REDIS_URL,
    workerConcurrency: e.WORKER_CONCURRENCY ?? Math.max(1, cpus().length),
    backgroundJobConcurrency: e.BACKGROUND_JOB_CONCURRENCY,
    jwtSecret: e.JWT_SECRET ?? persistentSecret(dataDir),
    accessTokenTtlSec: e.ACCESS_TOKEN_TTL_SEC,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    adminEmails: new Set(
      e.ADMIN_EMAILS.split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, issuer: e.GOOGLE_ISSUER }
        : undefined,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        }
      : undefined,
    webDist: e.WEB_DIST ?? path.resolve(import.meta.dirname, '../../web/dist'),
    logLevel: e.LOG_LEVEL,
    authRateLimit: e.AUTH_RATE_LIMIT,
    registerRateLimit: e.REGISTER_RATE_LIMIT,
    signInMailRateLimit: e.SIGN_IN_MAIL_RATE_LIMIT,
    trustProxy,
    trialCredits: e.TRIAL_CREDITS,
    realisticCreditsPerSecond: e.REALISTIC_CREDITS_PER_SECOND,
    // Turned into prices by services/billing/provider-prices.ts (config imports no service).
    providerPriceSettings: {
      usdPerImage: e.PROVIDER_USD_PER_IMAGE,
      usdPer1kCharacters: e.PROVIDER_USD_PER_1K_CHARACTERS,
      usdPerSecond: e.PROVIDER_USD_PER_SECOND,
      asOf: e.PROVIDER_PRICES_AS_OF,
      avatarModel: e.FAL_AVATAR_MODEL,
      imageQuality: e.OPENAI_EDIT_QUALITY,
    },
    billing: billingConfig(e),
    uploadRateLimit: e.UPLOAD_RATE_LIMIT,
    webhookTestRateLimit: e.WEBHOOK_TEST_RATE_LIMIT,
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT,
    webhookTestOrigins: webhookTestOrigins(e.UNSAFE_WEBHOOK_TEST_ORIGINS, env.NODE_ENV),
  };
}

/** The test-only webhook origins, normalised; never in production. */
function webhookTestOrigins(value: string, nodeEnv: string | undefined): string[] {
  const origins = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => new URL(s).origin);
  if (origins.length > 0 && nodeEnv === 'production') {
    throw new Error('UNSAFE_WEBHOOK_TEST_ORIGINS is for tests only and cannot be set when NODE_ENV is production');
  }
  return origins;
}

/** TRUST_PROXY as Fastify's trustProxy: false, a hop count, or proxy addresses and CIDR ranges. */
export function parseTrustProxy(value: string): false | number | string[] {
  const v = value.trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0' || v === 'off') return false;
  if (/^\d+$/.test(v)) return Number(v);
  if (v === 'true') {
    throw new Error(
      'Invalid configuration: TRUST_PROXY=true would believe any client that sends X-Forwarded-For. Give the number of proxies in front of the server (e.g. 1) or their addresses (e.g. 10.0.0.0/8).',
    );
  }
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.find(
    (s) => !/^[0-9a-f.:]+(\/\d{1,3})?$/.test(s) && !['loopback', 'linklocal', 'uniquelocal'].includes(s),
  );
  if (bad) {
    throw new Error(
      `Invalid configuration: TRUST_PROXY entry "${bad}" is not an IP address or CIDR range (or loopback, linklocal, uniquelocal).`,
    );
  }
  return list;
}

/** BILLING=stripe needs both Stripe secrets; a half-configured payment setup must not start. */
export type BillingConfig =
  | { mode: 'demo' }
  | { mode: 'off' }
  | {
      mode: 'stripe';
      secretKey: string;
      webhookSecret: string;
      api: { host: string; port: number; protocol: 'http' | 'https' } | null;
    };

function billingConfig(e: z.infer<typeof Env>): BillingConfig {
  if (e.BILLING === 'demo') return { mode: 'demo' };
  if (e.BILLING === 'off') return { mode: 'off' };
  if (!e.STRIPE_SECRET_KEY || !e.STRIPE_WEBHOOK_SECRET) {
    throw new Error('Invalid configuration: BILLING=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  }
  const api = e.STRIPE_API_URL ? new URL(e.STRIPE_API_URL) : null;
  return {
    mode: 'stripe' as const,
    secretKey: e.STRIPE_SECRET_KEY,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET,
    api: api
      ? {
          host: api.hostname,
          port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
          protocol: api.protocol === 'https:' ? ('https' as const) : ('http' as const),
        }
      : null,
  };
}

/** A JWT secret that survives restarts in embedded mode without anyone having to set one. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, '.jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
