import { parseBatchSheet, type BatchRow } from '@hookreel/contracts';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BatchErrorList, BatchRowsTable } from './batch-rows-table';

/** Rows as the server answers them, made by the shared parser from a sheet. */
function rowsOf(csv: string): BatchRow[] {
  return parseBatchSheet(csv).rows.map((r, i) => ({
    id: i + 1,
    line: r.line,
    cells: r.cells,
    values: r.values,
    product_url: r.errors.length ? null : `users/1/projects/p${i}.png`,
    errors: r.errors,
    project_id: null,
    job: null,
  }));
}

const SHEET = [
  'product,actor,hook,script,cta,language,accent,aspect,caption_style',
  'serum.png,2,Stop scrolling,Two drops.,Shop now,spanish,neutral,4:5,boxed',
  'serum.png,Actor 99,,Hello,,english,,9:16,sparkles',
].join('\n');

describe('BatchRowsTable', () => {
  it('outlines exactly the refused cells with their messages and marks the row skipped', () => {
    render(<BatchRowsTable rows={rowsOf(SHEET)} />);
    const [good, bad] = screen.getAllByTestId('batch-row');
    expect(good).toHaveAttribute('data-valid', 'true');
    expect(within(good!).queryAllByRole('note')).toHaveLength(0);
    expect(within(good!).getByText('Spanish')).toBeInTheDocument();
    expect(within(good!).getByText('Boxed lines')).toBeInTheDocument();

    expect(bad).toHaveAttribute('data-valid', 'false');
    expect(within(bad!).getByText('Skipped')).toBeInTheDocument();
    const flagged = [...bad!.querySelectorAll('td[data-error="true"]')].map((td) => td.getAttribute('data-column'));
    expect(flagged).toEqual(['actor', 'caption_style']);
    const actorCell = bad!.querySelector('td[data-column="actor"]')!;
    expect(actorCell).toHaveTextContent('Actor 99');
    expect(within(actorCell as HTMLElement).getByRole('note')).toHaveTextContent('Unknown actor "Actor 99"');
  });

  it('lists every error with its line and column', () => {
    render(<BatchErrorList rows={rowsOf(SHEET)} />);
    const items = screen.getAllByTestId('batch-error').map((li) => li.textContent);
    expect(items).toEqual([
      expect.stringMatching(/^Line 3, Actor: Unknown actor/),
      expect.stringMatching(/^Line 3, Caption style: Unknown caption style "sparkles"/),
    ]);
  });
});
