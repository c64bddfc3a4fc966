import { z } from 'zod';

/** The longest image address the content generator takes. */
export const REMOTE_IMAGE_URL_MAX = 2048;

/** POST /api/generate/remote-image: an image address the user pasted, fetched by the server. */
export const RemoteImageRequest = z.object({
  url: z.string().trim().min(1).max(REMOTE_IMAGE_URL_MAX),
});
export type RemoteImageRequest = z.infer<typeof RemoteImageRequest>;

/** The fetched image, cleaned and stored on our origin (shown from `/api/static/{file_path}`). */
export const RemoteImageResponse = z.object({
  file_path: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type RemoteImageResponse = z.infer<typeof RemoteImageResponse>;
