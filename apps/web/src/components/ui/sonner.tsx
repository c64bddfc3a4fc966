import { TIMINGS, UI } from '@hookreel/contracts';
import { Toaster as Sonner, type ToasterProps } from 'sonner';

/** App-wide toasts: 3 visible, 4000 ms (spec section 9). */
export function Toaster(props: ToasterProps) {
  return (
    <Sonner
      visibleToasts={UI.toastVisible}
      duration={TIMINGS.toastDurationMs}
      position="top-right"
      richColors
      closeButton
      className="toaster group"
      {...props}
    />
  );
}
