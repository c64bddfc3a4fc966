import { type ConfirmDeleteControls, ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';

export function DeleteJobDialog({ name, ...props }: ConfirmDeleteControls & { name?: string }) {
  return (
    <ConfirmDeleteDialog
      {...props}
      title="Delete Job"
      description={`${name ? `Delete the job for “${name}”? ` : ''}This cannot be undone.`}
      confirmLabel="Delete Job"
    />
  );
}
