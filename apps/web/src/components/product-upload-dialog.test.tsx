import { VALIDATION } from '@hookreel/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { ProductUploadDialog, projectNameFromFile } from './product-upload-dialog';

describe('projectNameFromFile', () => {
  it('drops the extension, turns separators into spaces and pads to 3 characters', () => {
    expect(projectNameFromFile('my_cool-serum.final.png')).toBe('my cool serum final');
    expect(projectNameFromFile('a.jpg')).toBe('a__');
    expect(projectNameFromFile('.png')).toBe('Product');
    expect(projectNameFromFile(`${'x'.repeat(150)}.png`)).toHaveLength(100);
  });
});

describe('ProductUploadDialog', () => {
  it('refuses non-images and continues with an image', async () => {
    const onContinue = vi.fn(async () => {});
    renderWithProviders(<ProductUploadDialog open onOpenChange={vi.fn()} onContinue={onContinue} />);
    expect(screen.getByText('PNG, JPG or WEBP, max 10MB')).toBeInTheDocument();
    expect(screen.getByText('No hands or people')).toBeInTheDocument();
    const input = screen.getByLabelText('Product image');
    await userEvent.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }), { applyAccept: false });
    expect(screen.getByRole('alert')).toHaveTextContent(VALIDATION.imageRequired);
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();
    const img = new File(['x'], 'serum.png', { type: 'image/png' });
    await userEvent.upload(input, img);
    expect(screen.getByText('serum.png')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(onContinue).toHaveBeenCalledWith(img));
  });
});
