import { MESSAGES } from '@hookreel/contracts';
import { type ConfirmDeleteControls, ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';

export function DeleteProjectDialog(props: ConfirmDeleteControls) {
  return <ConfirmDeleteDialog {...props} title="Delete Project" description={MESSAGES.projects.deleteConfirm} />;
}
