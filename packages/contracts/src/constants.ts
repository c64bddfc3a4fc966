/** Business constants and limits (docs/product.md#limits). One source for web and server. */
export const LIMITS = {
  projectNameMin: 3,
  projectNameMax: 100,
  hookPackNameMax: 200,
  scriptMax: 2000,
  passwordMin: 6,
  /** New passwords (registration); sign-in still accepts the 6-character minimum of older accounts. */
  passwordNewMin: 10,
  promptMin: 5,
  characterTypesMin: 1,
  characterTypesMax: 6,
  charactersPerType: 4,
  generateMoreCount: 4,
  videosPerHookPack: 12,
  /** Upload hint: PNG, JPG, WEBP, 10MB max — enforced on the server too. */
  uploadMaxBytes: 10 * 1024 * 1024,
  /**
   * Decompression-bomb guard and CPU bound: no upload may decode to more pixels than this (a 24-megapixel
   * camera photo fits; docs/decisions/076-upload-limits.md).
   */
  uploadMaxPixels: 25_000_000,
  /** Uploaded images are stored at most this many pixels on the long side. */
  uploadStoredMaxSide: 2048,
  /** Total bytes of one multipart request (every file and field together). */
  uploadMaxTotalBytes: 60 * 1024 * 1024,
  avatarUploadMaxFiles: 20,
  hookTextMax: 500,
  productDetailsMax: 2000,
  characterDescriptionMax: 500,
  /** Job event streams (GET /api/jobs/events) one user may hold open at once, per server process; then 429. */
  eventStreamsPerUser: 10,
} as const;

export const TIMINGS = {
  jobPollMs: 3000,
  hookPackJobPollMs: 1000,
  characterPollMs: 1000,
  estimatedJobDurationMs: 22 * 60 * 1000,
  estimatedProgressCap: 99,
  simulatedProgressCap: 90,
  mergeDurationMs: 15_000,
  projectAutoSaveMs: 150,
  /** A colour picker reports every step of a drag; the brand look is saved once it has been still this long. */
  brandLookSaveMs: 400,
  mergeScriptAutoSaveMs: 1000,
  mergeLanguageAutoSaveMs: 500,
  loginUserFetchAttempts: 3,
  loginRetryWaitMs: 500,
  loginFailureWaitMs: 1000,
  redirectSuccessMs: 1000,
  redirectFailureMs: 1500,
  previewDialogCloseMs: 1000,
  subscribeSimulationMs: 2000,
  longPressMs: 700,
  toastDurationMs: 4000,
} as const;

export const UI = {
  toastVisible: 3,
  projectSkeletons: 12,
  avatarSkeletons: 10,
  hookPackPlaceholders: 3,
  mobileBreakpointPx: 768,
  sidebarWidth: '16rem',
  sidebarWidthMobile: '18rem',
  sidebarWidthIcon: '3rem',
  sidebarCookieName: 'sidebar_state',
  sidebarCookieMaxAgeSec: 60 * 60 * 24 * 7,
  productDetailsLines: 2,
} as const;

/** The 576x1024 reference frame in which every placement and bound is expressed. */
export const FRAME = { width: 576, height: 1024 } as const;

export const CANVAS = {
  productScaleMin: 0.04,
  productScaleMax: 2,
  productScaleDefault: 0.3,
  maxWidth: 800,
  maxHeight: 600,
  maskFileName: 'mask.png',
} as const;

export const BOUNDS_EDITOR = {
  handleSize: 10,
  handleHitRadius: 10,
  rotationHandleOffset: 30,
  rotationHandleRadius: 8,
  rotationHandleHitRadius: 12,
  minBox: 50,
} as const;

/** Size class from an avatar's width: under 80 small, 80 to 150 medium, above 150 large; missing is medium. */
export const SIZE_THRESHOLDS = { small: 80, large: 150 } as const;

export const SESSION_KEYS = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  oauthStartTime: 'oauth_start_time',
  oauthCallbackUrl: 'oauth_callback_url',
  oauthLoginTime: 'oauth_login_time',
} as const;
