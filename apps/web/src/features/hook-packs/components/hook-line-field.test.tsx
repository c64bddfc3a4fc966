import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { HookLineField } from './hook-line-field';

function Harness({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  return <HookLineField aria-label="Hook line" value={value} onValueChange={setValue} />;
}

describe('HookLineField', () => {
  it('wraps a long hook over two rows so all of it can be read', () => {
    render(<Harness initial="Tired of trying every makeup product that promises a glow and never delivers?" />);
    const field = screen.getByRole('textbox', { name: 'Hook line' });
    expect(field).toHaveAttribute('rows', '2');
    expect(field).toHaveValue('Tired of trying every makeup product that promises a glow and never delivers?');
  });

  it('keeps a hook on one line of speech: Enter adds nothing and pasted line breaks become spaces', async () => {
    render(<Harness initial="" />);
    const field = screen.getByRole('textbox', { name: 'Hook line' });
    await userEvent.type(field, 'Stop{Enter}scrolling');
    expect(field).toHaveValue('Stopscrolling');
    await userEvent.clear(field);
    await userEvent.click(field);
    await userEvent.paste('POV:\nyour skin');
    expect(field).toHaveValue('POV: your skin');
  });
});
