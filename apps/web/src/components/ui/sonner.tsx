import { TIMINGS, UI } from '@hookreel/contracts';
import { Toaster as Sonner, type ToasterProps } from 'sonner';

/**
 * App-wide toasts: 3 visible, 4000 ms. Top centre: page actions sit at the top right and the sticky
 * continue bars at the bottom, so a toast there never covers the button the user reaches for next.
 */
export function Toaster(props: ToasterProps) {
  return (
    <Sonner
      visibleToasts={UI.toastVisible}
      duration={TIMINGS.toastDurationMs}
      position="top-center"
      richColors
      closeButton
      className="toaster group"
      {...props}
    />
  );
}
