import type { SizeClass } from '@hookreel/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderControlled } from '@/test/render';
import { SizeFilter } from './size-filter';

describe('SizeFilter', () => {
  it('keeps at least one size selected', async () => {
    renderControlled<SizeClass>(SizeFilter, ['small', 'medium', 'large'], 'sizes');
    await userEvent.click(screen.getByRole('button', { name: /Filter Size/ }));
    await userEvent.click(screen.getByRole('menuitemcheckbox', { name: 'Small' }));
    await userEvent.click(screen.getByRole('menuitemcheckbox', { name: 'Medium' }));
    expect(screen.getByTestId('sizes')).toHaveTextContent(/^large$/);
    await userEvent.click(screen.getByRole('menuitemcheckbox', { name: 'Large' }));
    expect(screen.getByTestId('sizes')).toHaveTextContent(/^large$/);
    expect(screen.getByRole('menuitemcheckbox', { name: 'Large' })).toHaveAttribute('aria-checked', 'true');
  });
});
