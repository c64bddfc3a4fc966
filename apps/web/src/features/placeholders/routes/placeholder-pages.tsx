import { SparklesIcon } from 'lucide-react';
import { ButtonLink } from '@/components/button-link';
import { Page, PageHeader } from '@/components/layout/page';

/** The "other Product pages", which exist only as placeholders (docs/product.md#what-it-does). */
export const PRODUCT_PLACEHOLDER_TITLES = {
  productInHand: 'Product in hand',
  aiActorVideo: 'AI actor video',
  lipSync: 'Lip sync existing content',
  aiSpokesperson: 'AI spokesperson',
  revoice: 'Revoice your video',
} as const;

export function ProductPlaceholderPage({ title }: { title: string }) {
  return (
    <Page>
      <PageHeader title={title} />
      <div className="flex flex-col items-center gap-4 rounded-2xl border border-dashed bg-muted/30 px-6 py-16 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
          <SparklesIcon className="size-6" aria-hidden="true" />
        </span>
        <div className="space-y-1">
          <p className="text-lg font-semibold">Coming soon</p>
          <p className="max-w-md text-sm text-muted-foreground">
            This video type is not available yet. In the meantime, create a Product in hand video.
          </p>
        </div>
        <ButtonLink to="/new-video">Create New Video</ButtonLink>
      </div>
    </Page>
  );
}

export const AiActorVideoPage = () => <ProductPlaceholderPage title={PRODUCT_PLACEHOLDER_TITLES.aiActorVideo} />;
export const LipSyncPage = () => <ProductPlaceholderPage title={PRODUCT_PLACEHOLDER_TITLES.lipSync} />;
export const AiSpokespersonPage = () => <ProductPlaceholderPage title={PRODUCT_PLACEHOLDER_TITLES.aiSpokesperson} />;
export const RevoicePage = () => <ProductPlaceholderPage title={PRODUCT_PLACEHOLDER_TITLES.revoice} />;
export const ProductInHandPlaceholderPage = () => (
  <ProductPlaceholderPage title={PRODUCT_PLACEHOLDER_TITLES.productInHand} />
);
