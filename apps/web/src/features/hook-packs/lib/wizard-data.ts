import type { Accent, HookPack, Language } from '@hookreel/contracts';
import type { UpdateHookPackInput } from '../api/update-hook-pack';
import type { VariantRow } from './variants';

/** The wizard's local data (docs/product.md#hook-packs), kept while moving between steps. */
export interface WizardData {
  product: {
    /** Local preview of the chosen file while it uploads. */
    imageUrl: string | null;
    customShape: string;
    customCategory: string;
  };
  types: string[] | null;
  message: { hookText: string; language: Language; accent: Accent; voiceId: string | null } | null;
  variants: VariantRow[] | null;
  generatedVideos: { startedAt: number | null };
}

export const emptyWizardData = (): WizardData => ({
  product: { imageUrl: null, customShape: '', customCategory: '' },
  types: null,
  message: null,
  variants: null,
  generatedVideos: { startedAt: null },
});

/** What every step receives from the wizard page. */
export interface StepProps {
  pack: HookPack | null;
  data: WizardData;
  setData: (update: (d: WizardData) => WizardData) => void;
  /** Saves `patch` plus this step's status (when it advances the pack) and moves to the next step. */
  advance: (patch?: Omit<UpdateHookPackInput, 'status'>) => Promise<boolean>;
  back: () => void;
  advancing: boolean;
}
