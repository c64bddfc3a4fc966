import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeQualityReport, renderWithProviders } from '@/test/render';
import { QualityReportCard } from './quality-report';

afterEach(() => vi.unstubAllGlobals());

/** Serves one stored report file at /api/static/{key}; anything else is a 404. */
function serveReport(key: string, body: unknown, status = 200) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    return path === `/api/static/${key}` ? jsonResponse(body, status) : jsonResponse({ detail: 'Not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('QualityReportCard', () => {
  it('shows one green, amber or red line per check, the verdict and a link to the full report', async () => {
    const base = makeQualityReport();
    const checks = base.checks.map((c) =>
      c.id === 'loudness'
        ? { ...c, level: 'warn' as const, detail: '-15.6 LUFS integrated' }
        : c.id === 'overlap'
          ? { ...c, level: 'fail' as const, detail: 'captions cover the product' }
          : c,
    );
    serveReport('u1/job-9/report.json', { ...base, checks });
    renderWithProviders(<QualityReportCard job={{ report_url: 'static/u1/job-9/report.json' }} />);

    const list = await screen.findByRole('list', { name: 'Quality checks' });
    const lines = within(list).getAllByTestId('quality-line');
    expect(lines.map((l) => l.dataset.check)).toEqual(checks.map((c) => c.id));
    const byId = (id: string) => lines.find((l) => l.dataset.check === id) as HTMLElement;
    expect(byId('sar').dataset.level).toBe('pass');
    expect(byId('loudness').dataset.level).toBe('warn');
    expect(byId('loudness')).toHaveTextContent('Loudness −14 LUFS: Needs a look-15.6 LUFS integrated');
    expect(byId('overlap')).toHaveTextContent('Failed');
    expect(byId('overlap').querySelector('svg')).toHaveClass('text-red-600');
    expect(byId('loudness').querySelector('svg')).toHaveClass('text-amber-500');
    expect(byId('sar').querySelector('svg')).toHaveClass('text-emerald-600');
    expect(screen.getByTestId('quality-verdict')).toHaveAttribute('data-level', 'fail');
    expect(screen.getByRole('link', { name: /Full report/ })).toHaveAttribute(
      'href',
      '/api/static/u1/job-9/report.json',
    );
  });

  it('says so for a video made before reports, without fetching', () => {
    const fetchMock = serveReport('x', {});
    renderWithProviders(<QualityReportCard job={{ report_url: null }} />);
    expect(screen.getByText('This video was made before quality reports.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('says when the report cannot be loaded', async () => {
    serveReport('u1/job-9/report.json', { version: 2 });
    renderWithProviders(<QualityReportCard job={{ report_url: 'static/u1/job-9/report.json' }} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('The quality report could not be loaded.');
  });
});
