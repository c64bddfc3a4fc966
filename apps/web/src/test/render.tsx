import {
  creatorConsentText,
  PRICES,
  type Avatar,
  type Creator,
  type Job,
  type PriceList,
  type Project,
  type ProjectCharacter,
  type QualityReport,
  type User,
} from '@hookreel/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { useState, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { vi } from 'vitest';
import { AuthContextStub, type AuthContextValue } from '@/lib/auth';

export const makeUser = (over: Partial<User> = {}): User => ({
  id: 1,
  email: 'ada@example.com',
  credits: 12.5,
  notify: false,
  is_admin: false,
  created_at: '2025-01-01T00:00:00.000Z',
  ...over,
});

/** The video style a new project or hook pack starts with (captions, colours, one 9:16 cut, Draft). */
export const defaultVideoStyle = {
  caption_style: 'highlight',
  cta_text: null,
  music_url: null,
  quality: 'draft',
  voice_speed: 1,
  voice_id: null,
  aspects: ['9:16'],
  caption_font: 'dejavu_sans',
  primary_colour: '#FFD23F',
  secondary_colour: '#111111',
  outro: false,
} satisfies Partial<Project>;

/** Project 3, 'Summer Serum', English (American), with no characters yet. */
export const makeProject = (over: Partial<Project> = {}): Project => ({
  id: 3,
  name: 'Summer Serum',
  file_path: 'products/3.png',
  script: 'My skin glows now.',
  language: 'english',
  accent: 'american',
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  characters: [],
  voice_source: 'generated',
  voice_over: null,
  // The product's cut-out already checked and clean (decision 214): screens that spend show no warning.
  cutout_check: {
    verdict: 'clean',
    fixed: [],
    reasons: [],
    cutout_url: 'users/1/projects/3-ab-cutout.png',
    accepted: false,
  },
  ...defaultVideoStyle,
  ...over,
});

/** Catalogue actor {id} chosen in a project ('Actor {id}'), selected, not merged, never placed. */
export const makeCharacter = (id: number, over: Partial<ProjectCharacter> = {}): ProjectCharacter => ({
  id,
  prompt: null,
  url: `static/catalogue/${id}.png`,
  display_url: `static/catalogue/${id}.png`,
  name: `Actor ${id}`,
  selected: true,
  x: null,
  y: null,
  width: null,
  height: null,
  rotation: 0,
  is_merged: false,
  merged_character: null,
  catalogue: true,
  photoreal: false,
  ...over,
});

/** An actor with no prompt and no saved bounds, named 'Actor {id}'. */
export const makeAvatar = (id: number, over: Partial<Avatar> = {}): Avatar => ({
  id,
  url: `avatars/${id}.png`,
  prompt: null,
  name: `Actor ${id}`,
  x: null,
  y: null,
  width: null,
  height: null,
  rotation: 0,
  size: 'medium',
  merge_status: null,
  merged_url: null,
  catalogue: false,
  kind: 'photo',
  own: false,
  preview_url: null,
  photoreal: false,
  mouth_stills: false,
  ...over,
});

/** The user's own creator {id} ('Maya' unless named): a photo with its consent confirmed. */
export const makeCreator = (id: number, over: Partial<Creator> = {}): Creator => {
  const name = over.name ?? 'Maya';
  return {
    ...makeAvatar(id, { url: `users/1/creators/${id}.png`, kind: 'photo', own: true }),
    name,
    consent: {
      text: creatorConsentText(name),
      confirmed_at: '2026-12-01T21:00:00.000Z',
      confirmed_by: 'ada@example.com',
    },
    created_at: '2026-12-01T21:00:00.000Z',
    ...over,
  };
};

/** A project video job as the API returns it; override what the test is about. */
export const makeJob = (over: Partial<Job> = {}): Job => ({
  id: 7,
  project_id: 3,
  project_name: 'Summer Serum',
  project_deleted: false,
  kind: 'video',
  status: 'in_progress',
  progress: 40,
  video_url: null,
  poster_url: null,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  logs: [],
  hook_pack_id: null,
  variant_index: null,
  error: null,
  quality: null,
  report_url: null,
  contact_sheet_url: null,
  actor_name: null,
  variant_label: null,
  hook_text: null,
  variant_id: null,
  download_url: null,
  eta_seconds: null,
  cost: null,
  cost_usd: null,
  render_quality: 'draft',
  realistic_upgrade_cost: null,
  realistic_upgrade: null,
  aspects: [],
  ...over,
});

/** A quality report as the engine writes it: every check passes unless `checks` says otherwise. */
export const makeQualityReport = (over: Partial<QualityReport> = {}): QualityReport => ({
  version: 1,
  width: 720,
  height: 1280,
  sar: '1:1',
  duration_sec: 6.4,
  integrated_lufs: -14.1,
  true_peak_dbtp: -1.6,
  sample_rate: 48000,
  channels: 2,
  av_drift_ms: 12,
  boxes: [],
  overlaps: [],
  safe_zone_violations: [],
  mouth: { speech_motion: 9.2, silence_motion: 0.4, present: true },
  checks: [
    { id: 'size', label: 'Frame size', level: 'pass', detail: '720x1280' },
    { id: 'sar', label: 'Square pixels', level: 'pass', detail: 'SAR 1:1' },
    { id: 'overlap', label: 'Text clear of face and product', level: 'pass', detail: 'no overlap' },
    { id: 'safe-zone', label: 'Text inside the safe zone', level: 'pass', detail: 'all text inside' },
    { id: 'loudness', label: 'Loudness −14 LUFS', level: 'pass', detail: '-14.1 LUFS integrated' },
    { id: 'true-peak', label: 'True peak ≤ −1 dBTP', level: 'pass', detail: '-1.6 dBTP' },
    { id: 'av-drift', label: 'Sound in sync with picture', level: 'pass', detail: '12 ms between stream ends' },
    {
      id: 'mouth',
      label: 'Mouth moves with the voice',
      level: 'pass',
      detail: 'change 9.2 while speaking, 0.4 in silence',
    },
    { id: 'duration', label: 'Duration', level: 'pass', detail: '6.40 s' },
  ],
  ...over,
});

type PriceListOverrides = Partial<Omit<PriceList, 'prices' | 'realistic'>> & {
  prices?: Partial<PriceList['prices']>;
  realistic?: Partial<PriceList['realistic']>;
};

/** GET /credits/prices: this installation's list prices (1 credit a Draft video), 1.80 a Realistic hook video; `prices`/`realistic` merge field by field. */
export const makePriceList = ({ prices, realistic, ...over }: PriceListOverrides = {}): PriceList => ({
  prices: { ...PRICES, ...prices },
  trial_credits: 15,
  realistic: { credits_per_second: 0.1, hook_video: 1.8, ...realistic },
  characters_per_type: 4,
  videos_per_pack: 12,
  ...over,
});

export const testQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } } });

/** Shows the current location so tests can assert redirects. */
export function LocationProbe() {
  const l = useLocation();
  return <div data-testid="location">{`${l.pathname}${l.search}`}</div>;
}

export function renderWithProviders(
  ui: ReactElement,
  {
    route = '/',
    auth,
    queryClient = testQueryClient(),
  }: { route?: string; auth?: Partial<AuthContextValue>; queryClient?: QueryClient } = {},
) {
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[route]}>
        {auth ? <AuthContextStub value={auth}>{children}</AuthContextStub> : children}
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>
  );
  return { queryClient, ...render(ui, { wrapper: Wrapper }) };
}

/** A fetch Response with a JSON body. */
export const jsonResponse = (body: unknown, status = 200) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/**
 * Stubs fetch so the price list is held back until the test calls the returned `release(prices)`; other URLs
 * answer with their body in `others`, or 404.
 */
export function holdPriceList(others: Record<string, unknown> = {}) {
  let release: (r: Response) => void = () => {};
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === '/api/credits/prices') return new Promise<Response>((r) => (release = r));
      if (url in others) return jsonResponse(others[url]);
      return jsonResponse({ detail: 'Not found' }, 404);
    }),
  );
  return (prices: PriceList) => release(jsonResponse(prices));
}

/**
 * Renders a controlled multi-pick (`value`/`onChange` over a list) holding its value as a page would, and shows
 * that value, joined by commas, in `<output data-testid={testId}>`.
 */
export function renderControlled<T extends string>(
  Picker: ComponentType<{ value: T[]; onChange: (value: T[]) => void }>,
  initial: T[],
  testId: string,
) {
  function Harness() {
    const [value, setValue] = useState<T[]>(initial);
    return (
      <>
        <Picker value={value} onChange={setValue} />
        <output data-testid={testId}>{value.join(',')}</output>
      </>
    );
  }
  return renderWithProviders(<Harness />);
}
