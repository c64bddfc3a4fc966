import type { Batch, BatchRow } from '@hookreel/contracts';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeJob, renderWithProviders } from '@/test/render';
import { BatchPage } from './batch-page';

const row = (line: number, status: 'completed' | 'in_progress'): BatchRow => ({
  id: line,
  line,
  cells: {},
  values: {
    product: 'p.png',
    actor_id: '1',
    actor_name: 'Actor 1',
    hook: '',
    script: 'Hi there.',
    cta: null,
    language: 'english',
    accent: 'american',
    voice_id: null,
    aspect: '9:16',
    caption_style: 'highlight',
  },
  product_url: null,
  errors: [],
  project_id: line,
  job: makeJob({ id: 100 + line, status, progress: status === 'completed' ? 100 : 40 }),
});

const batch = (rows: BatchRow[]): Batch => {
  const completed = rows.filter((r) => r.job?.status === 'completed').length;
  return {
    id: 9,
    name: 'Spring sheet',
    status: 'queued',
    created_at: '2026-12-02T00:00:00.000Z',
    errors: [],
    rows,
    valid_rows: rows.length,
    total_price: rows.length,
    progress: {
      queued: 0,
      in_progress: rows.length - completed,
      completed,
      failed: 0,
      percent: Math.round((100 * completed) / rows.length),
    },
    zip_url: completed ? 'batches/9/download' : null,
  };
};

function open(b: Batch) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => jsonResponse(b)),
  );
  renderWithProviders(
    <Routes>
      <Route path="/batches/:id" element={<BatchPage />} />
    </Routes>,
    { route: '/batches/9' },
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('BatchPage while rendering', () => {
  it('says the zip holds only the finished videos while others still render', async () => {
    open(batch([row(2, 'completed'), row(3, 'in_progress'), row(4, 'in_progress')]));
    expect(await screen.findByRole('button', { name: 'Download 1 finished (zip)' })).toBeEnabled();
    expect(screen.getByTestId('batch-zip-partial')).toHaveTextContent(
      'The zip holds the 1 video finished so far; the other 2 are still rendering.',
    );
  });

  it('offers the whole zip once every video is done', async () => {
    open(batch([row(2, 'completed'), row(3, 'completed')]));
    expect(await screen.findByRole('button', { name: 'Download all (zip)' })).toBeEnabled();
    expect(screen.queryByTestId('batch-zip-partial')).toBeNull();
  });
});
