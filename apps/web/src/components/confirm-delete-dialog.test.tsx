import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';

const renderDialog = (confirmLabel?: string) => {
  const onConfirm = vi.fn();
  const onOpenChange = vi.fn();
  render(
    <ConfirmDeleteDialog
      open
      onOpenChange={onOpenChange}
      onConfirm={onConfirm}
      title="Delete Thing"
      description="Gone for good."
      confirmLabel={confirmLabel}
    />,
  );
  return { onConfirm, onOpenChange };
};

describe('ConfirmDeleteDialog', () => {
  it('shows its texts in an alert dialog and confirms once', async () => {
    const { onConfirm, onOpenChange } = renderDialog();
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Thing' });
    expect(dialog).toHaveAccessibleDescription('Gone for good.');
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('takes its own confirm label and cancels without confirming', async () => {
    const { onConfirm, onOpenChange } = renderDialog('Delete Thing');
    expect(screen.getByRole('button', { name: 'Delete Thing' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
