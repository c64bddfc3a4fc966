import type { FormEvent, ReactNode } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';

export { DialogFooter } from '@/components/ui/dialog';

/**
 * The studio's dialog: a title, a description (read to screen readers even when hidden) and the body, whose
 * last child is usually a `DialogFooter`. While `busy` (an upload, a save) it cannot be closed by Escape, a click
 * outside or the close button, so work in flight is never abandoned by accident. With `onSubmit` the header and
 * body form one form, so Enter in a field submits it.
 */
export function TitledDialog({
  open,
  onOpenChange,
  title,
  description,
  hideDescription = false,
  busy = false,
  className,
  onSubmit,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  hideDescription?: boolean;
  busy?: boolean;
  className?: string;
  onSubmit?: (e: FormEvent) => void;
  children: ReactNode;
}) {
  const header = (
    <DialogHeader>
      <DialogTitle>{title}</DialogTitle>
      <DialogDescription className={hideDescription ? 'sr-only' : undefined}>{description}</DialogDescription>
    </DialogHeader>
  );
  return (
    <Dialog open={open} onOpenChange={(o) => !busy && onOpenChange(o)}>
      <DialogContent
        className={className}
        showCloseButton={!busy}
        onEscapeKeyDown={(e) => busy && e.preventDefault()}
        onInteractOutside={(e) => busy && e.preventDefault()}
      >
        {onSubmit ? (
          <form onSubmit={onSubmit} className="grid gap-4">
            {header}
            {children}
          </form>
        ) : (
          <>
            {header}
            {children}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
