import { TIMINGS, UI } from '@hookreel/contracts';
import { Toaster as Sonner, type ToasterProps } from 'sonner';
import { useIsMobile } from '@/hooks/use-mobile';

/**
 * Clearance for toasts on a phone: they sit at the bottom, above the tallest sticky action bar (the actor picker's
 * Continue bar, 61 px) with a little air, so they cover neither the top bar with its menu button nor that bar.
 */
const PHONE_BOTTOM_CLEARANCE_PX = 76;

/**
 * App-wide toasts: 3 visible, 4000 ms. On a desktop they sit top centre: page actions are at the top right and the
 * sticky continue bars at the bottom, and there is no top bar. A phone has its top bar (menu, logo) and the page's
 * actions right under it, so there they rise from the bottom instead, above the sticky bars.
 */
export function Toaster(props: ToasterProps) {
  const phone = useIsMobile();
  return (
    <Sonner
      visibleToasts={UI.toastVisible}
      duration={TIMINGS.toastDurationMs}
      position={phone ? 'bottom-center' : 'top-center'}
      mobileOffset={{ bottom: PHONE_BOTTOM_CLEARANCE_PX, left: 12, right: 12 }}
      richColors
      closeButton
      className="toaster group"
      {...props}
    />
  );
}
