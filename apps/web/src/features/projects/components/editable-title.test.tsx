import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { EditableTitle } from './editable-title';

describe('EditableTitle', () => {
  it('ignores a name that is blank after trimming', async () => {
    const onSave = vi.fn();
    renderWithProviders(<EditableTitle name="Old name" onSave={onSave} />);
    await userEvent.click(screen.getByRole('button', { name: /Old name/ }));
    const input = screen.getByLabelText('Project name');
    await userEvent.clear(input);
    await userEvent.type(input, '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await userEvent.type(input, '{Enter}');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('saves a trimmed new name and Cancel restores the title', async () => {
    const onSave = vi.fn(async () => {});
    renderWithProviders(<EditableTitle name="Old name" onSave={onSave} />);
    await userEvent.click(screen.getByRole('button', { name: /Old name/ }));
    const input = screen.getByLabelText('Project name');
    await userEvent.clear(input);
    await userEvent.type(input, '  New name  ');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith('New name');
  });

  it('Cancel leaves without saving', async () => {
    const onSave = vi.fn();
    renderWithProviders(<EditableTitle name="Old name" onSave={onSave} />);
    await userEvent.click(screen.getByRole('button', { name: /Old name/ }));
    await userEvent.type(screen.getByLabelText('Project name'), 'xyz');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: /Old name/ })).toBeInTheDocument();
  });
});
