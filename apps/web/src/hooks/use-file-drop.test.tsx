import { createEvent, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useFileDrop } from './use-file-drop';

function Zone({ onFile }: { onFile: (file: File | undefined) => void }) {
  const { dragOver, dropZoneProps } = useFileDrop(onFile);
  return <div data-testid="zone" data-over={dragOver} {...dropZoneProps} />;
}

describe('useFileDrop', () => {
  it('highlights while dragging over and hands over the first dropped file', () => {
    const onFile = vi.fn();
    render(<Zone onFile={onFile} />);
    const zone = screen.getByTestId('zone');
    expect(zone).toHaveAttribute('data-over', 'false');
    const over = createEvent.dragOver(zone);
    fireEvent(zone, over);
    expect(over.defaultPrevented).toBe(true);
    expect(zone).toHaveAttribute('data-over', 'true');
    fireEvent.dragLeave(zone);
    expect(zone).toHaveAttribute('data-over', 'false');

    const a = new File(['a'], 'a.png', { type: 'image/png' });
    const b = new File(['b'], 'b.png', { type: 'image/png' });
    fireEvent.dragOver(zone);
    const drop = createEvent.drop(zone, { dataTransfer: { files: [a, b] } });
    fireEvent(zone, drop);
    expect(drop.defaultPrevented).toBe(true);
    expect(zone).toHaveAttribute('data-over', 'false');
    expect(onFile).toHaveBeenCalledExactlyOnceWith(a);
  });
});
