import { type DragEvent, useState } from 'react';

/**
 * Dropping one file on a zone: `dragOver` drives the highlight, `dropZoneProps` go on the zone. The drop's
 * default is prevented, or the browser would open the file instead.
 */
export function useFileDrop(onFile: (file: File | undefined) => void) {
  const [dragOver, setDragOver] = useState(false);
  const dropZoneProps = {
    onDragOver: (e: DragEvent) => {
      e.preventDefault();
      setDragOver(true);
    },
    onDragLeave: () => setDragOver(false),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      setDragOver(false);
      onFile(e.dataTransfer.files?.[0]);
    },
  };
  return { dragOver, dropZoneProps };
}
