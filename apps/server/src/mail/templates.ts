export interface VideosReadyInput {
  publicUrl: string;
  videos: Array<{ id: number; name: string }>;
  failedCount: number;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** "Your videos are ready": one link per video to its job page in the web app. */
export function videosReadyEmail(input: VideosReadyInput): { subject: string; text: string; html: string } {
  const n = input.videos.length;
  const subject = n === 1 ? 'Your video is ready' : `Your ${n} videos are ready`;
  const links = input.videos.map((v, i) => ({
    label: n === 1 ? v.name : `${v.name} – Video #${i + 1}`,
    url: `${input.publicUrl}/jobs/${v.id}`,
  }));
  const failed =
    input.failedCount > 0
      ? `${input.failedCount} video${input.failedCount === 1 ? '' : 's'} could not be generated; the credits were returned.`
      : '';
  const text = [
    'Hi,',
    '',
    n === 1 ? 'Your video has finished rendering:' : 'Your videos have finished rendering:',
    '',
    ...links.map((l) => `${l.label}: ${l.url}`),
    ...(failed ? ['', failed] : []),
    '',
    'You can turn these e-mails off in Settings.',
    '— Hookreel',
  ].join('\n');
  const html = [
    '<p>Hi,</p>',
    `<p>${n === 1 ? 'Your video has finished rendering:' : 'Your videos have finished rendering:'}</p>`,
    '<ul>',
    ...links.map((l) => `<li><a href="${escapeHtml(l.url)}">${escapeHtml(l.label)}</a></li>`),
    '</ul>',
    ...(failed ? [`<p>${escapeHtml(failed)}</p>`] : []),
    '<p>You can turn these e-mails off in Settings.<br>— Hookreel</p>',
  ].join('\n');
  return { subject, text, html };
}
