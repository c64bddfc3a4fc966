import { config } from '@/config';

const stripLeading = (p: string) => p.replace(/^\/+/, '');
const isAbsolute = (p: string) => /^(https?:|data:|blob:)/i.test(p);

/** Images load from {api}/static/{file_path or url} (docs/product.md#api). */
export function staticUrl(path: string | null | undefined): string | undefined {
  if (!path) return undefined;
  if (isAbsolute(path)) return path;
  const p = stripLeading(path);
  return p.startsWith('static/') ? `${config.apiBase}/${p}` : `${config.apiBase}/static/${p}`;
}

/** Videos load from {api}/{video_url}. */
export function videoUrl(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  if (isAbsolute(url)) return url;
  return `${config.apiBase}/${stripLeading(url)}`;
}
