import { useMutation } from '@tanstack/react-query';
import { config } from '@/config';
import { downloadBlob, saveBlob } from '@/lib/download';

export { saveBlob } from '@/lib/download';

/**
 * GET /api/hooks/{id}/download → the pack's zip (MP4s, SRT, VTT, manifest.csv) as a Blob. Bearer token attached
 * and renewed once on a 401, like every other call of the api client.
 */
export const downloadPackZip = (hookPackId: number, signal?: AbortSignal): Promise<{ blob: Blob; fileName: string }> =>
  downloadBlob(`${config.apiBase}/hooks/${hookPackId}/download`, `hook-pack-${hookPackId}.zip`, signal);

export function useDownloadPackZip() {
  return useMutation({
    mutationFn: async (hookPackId: number) => {
      const { blob, fileName } = await downloadPackZip(hookPackId);
      saveBlob(blob, fileName);
      return fileName;
    },
  });
}
