import { ImageUpIcon, PackageIcon, UsersIcon } from 'lucide-react';
import { useState } from 'react';
import { Page, PageHeader } from '@/components/layout/page';
import { NewProductProjectDialog } from '@/components/new-product-project-dialog';
import { Button } from '@/components/ui/button';

const STEPS = [
  { icon: PackageIcon, title: '1. Upload your product', text: 'A clean, well-lit photo facing forward.' },
  { icon: UsersIcon, title: '2. Choose your actors', text: 'Pick the AI actors who will hold it.' },
];

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
        {STEPS.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex items-start gap-3 rounded-xl border bg-card p-4">
            <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
              <Icon className="size-4" aria-hidden="true" />
            </span>
            <div>
              <p className="font-medium">{title}</p>
              <p className="text-sm text-muted-foreground">{text}</p>
            </div>
          </li>
        ))}
      </ol>
      <Button variant="brand" size="lg" onClick={() => setOpen(true)}>
        <ImageUpIcon aria-hidden="true" /> Upload product
      </Button>
      <NewProductProjectDialog open={open} onOpenChange={setOpen} />
    </Page>
  );
}
