import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DeleteJobDialog } from './delete-job-dialog';

describe('DeleteJobDialog', () => {
  it('names the project when it knows it', () => {
    render(<DeleteJobDialog open onOpenChange={vi.fn()} onConfirm={vi.fn()} name="Serum" />);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Job' });
    expect(dialog).toHaveAccessibleDescription('Delete the job for “Serum”? This cannot be undone.');
    expect(screen.getByRole('button', { name: 'Delete Job' })).toBeInTheDocument();
  });

  it('falls back to the plain warning without a name', () => {
    render(<DeleteJobDialog open onOpenChange={vi.fn()} onConfirm={vi.fn()} />);
    expect(screen.getByRole('alertdialog')).toHaveAccessibleDescription('This cannot be undone.');
  });
});
