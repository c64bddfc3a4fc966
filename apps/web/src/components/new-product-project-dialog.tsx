import { MESSAGES } from '@hookreel/contracts';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorDetail } from '@/lib/api-client';
import { ProductUploadDialog, projectNameFromFile } from '@/components/product-upload-dialog';
import { useCreateProject } from '@/lib/api/create-project';

/**
 * The product upload dialog of /new-video and /product-in-hand: the upload creates a project named after the
 * file, then the user goes on to /product-in-hand/{id}/select-actor. On failure the dialog stays open.
 */
export function NewProductProjectDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const navigate = useNavigate();
  const create = useCreateProject();

  const onContinue = async (file: File) => {
    try {
      const id = await create.mutateAsync({ name: projectNameFromFile(file.name), file });
      toast.success(MESSAGES.projects.created);
      onOpenChange(false);
      navigate(`/product-in-hand/${id}/select-actor`);
    } catch (e) {
      toast.error(errorDetail(e, MESSAGES.projects.createFailed));
    }
  };

  return <ProductUploadDialog open={open} onOpenChange={onOpenChange} onContinue={onContinue} />;
}
