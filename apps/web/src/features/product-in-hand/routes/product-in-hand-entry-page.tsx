import { ImageUpIcon, PackageIcon, UsersIcon } from 'lucide-react';
import { useState } from 'react';
import { Page, PageHeader } from '@/components/layout/page';
import { NewProductProjectDialog } from '@/components/new-product-project-dialog';
import { Button } from '@/components/ui/button';

/**
 * /product-in-hand and /product-in-hand/new: the entry variant. Upload the product (same dialog as
 * /new-video), which creates the project, then choose actors on the select-actor screen.
 */
export function ProductInHandEntryPage() {
  const [open, setOpen] = useState(false);

  return (
    <Page className="max-w-3xl">
      <PageHeader title="Product in hand" description="Upload your product, then choose the actors who hold it." />
      <ol className="mb-8 grid gap-4 sm:grid-cols-2">
        <li className="flex items-start gap-3 rounded-xl border bg-card p-4">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
            <PackageIcon className="size-4" aria-hidden="true" />
          </span>
          <div>
            <p className="font-medium">1. Upload your product</p>
            <p className="text-sm text-muted-foreground">A clean, well-lit photo facing forward.</p>
          </div>
        </li>
        <li className="flex items-start gap-3 rounded-xl border bg-card p-4">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
            <UsersIcon className="size-4" aria-hidden="true" />
          </span>
          <div>
            <p className="font-medium">2. Choose your actors</p>
            <p className="text-sm text-muted-foreground">Pick the AI actors who will hold it.</p>
          </div>
        </li>
      </ol>
      <Button variant="brand" size="lg" onClick={() => setOpen(true)}>
        <ImageUpIcon aria-hidden="true" /> Upload product
      </Button>
      <NewProductProjectDialog open={open} onOpenChange={setOpen} />
    </Page>
  );
}
