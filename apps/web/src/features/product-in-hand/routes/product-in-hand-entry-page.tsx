import { MESSAGES } from '@hookreel/contracts';
import { ImageUpIcon, PackageIcon, UsersIcon } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Page, PageHeader } from '@/components/layout/page';
import { ProductUploadDialog, projectNameFromFile } from '@/components/product-upload-dialog';
import { Button } from '@/components/ui/button';
import { useCreateProject } from '@/lib/api/create-project';

/**
 * /product-in-hand and /product-in-hand/new: the entry variant. Upload the product (same dialog as
 * /new-video), which creates the project, then choose actors on the select-actor screen.
 */
export function ProductInHandEntryPage() {
  const navigate = useNavigate();
  const create = useCreateProject();
  const [open, setOpen] = useState(false);

  const onContinue = async (file: File) => {
    try {
      const id = await create.mutateAsync({ name: projectNameFromFile(file.name), file });
      toast.success(MESSAGES.projects.created);
      setOpen(false);
      navigate(`/product-in-hand/${id}/select-actor`);
    } catch {
      toast.error(MESSAGES.projects.createFailed);
    }
  };

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
      <ProductUploadDialog open={open} onOpenChange={setOpen} onContinue={onContinue} />
    </Page>
  );
}
