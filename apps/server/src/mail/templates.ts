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

/** The built-in provider's sign-in mail: a one-time link and the same sign-in's 6-digit code. */
export function signInEmail(input: { link: string; code: string; minutes: number }): {
  subject: string;
  text: string;
  html: string;
} {
  const subject = `Your Hookreel sign-in code: ${input.code}`;
  const text = [
    'Hi,',
    '',
    'Open this link to sign in to Hookreel:',
    '',
    input.link,
    '',
    `Or type this code on the sign-in page: ${input.code}`,
    '',
    `The link and the code work once, for ${input.minutes} minutes, in the browser where you asked for them.`,
    'If you did not try to sign in, ignore this e-mail: nobody can sign in without it.',
    '— Hookreel',
  ].join('\n');
  const html = [
    '<p>Hi,</p>',
    `<p><a href="${escapeHtml(input.link)}">Sign in to Hookreel</a></p>`,
    `<p>Or type this code on the sign-in page: <strong style="font-size:20px;letter-spacing:2px">${escapeHtml(input.code)}</strong></p>`,
    `<p>The link and the code work once, for ${input.minutes} minutes, in the browser where you asked for them.<br>`,
    'If you did not try to sign in, ignore this e-mail: nobody can sign in without it.<br>— Hookreel</p>',
  ].join('\n');
  return { subject, text, html };
}

/** Sent after registering with a password: the address counts (trial, credits) once this link is opened. */
export function verifyEmail(input: { link: string; hours: number }): { subject: string; text: string; html: string } {
  const subject = 'Confirm your e-mail address for Hookreel';
  const text = [
    'Hi,',
    '',
    'Open this link to confirm that this is your e-mail address:',
    '',
    input.link,
    '',
    `The link works for ${input.hours} hours. Your free credits become available once the address is confirmed.`,
    'If you did not create a Hookreel account, ignore this e-mail and do not open the link.',
    '— Hookreel',
  ].join('\n');
  const html = [
    '<p>Hi,</p>',
    `<p><a href="${escapeHtml(input.link)}">Confirm your e-mail address</a></p>`,
    `<p>The link works for ${input.hours} hours. Your free credits become available once the address is confirmed.<br>`,
    'If you did not create a Hookreel account, ignore this e-mail and do not open the link.<br>— Hookreel</p>',
  ].join('\n');
  return { subject, text, html };
}

/** An endpoint paused after failing again and again: what happened and where to resume it. */
export function webhookPausedEmail(input: { publicUrl: string; url: string; failures: number }): {
  subject: string;
  text: string;
  html: string;
} {
  const subject = 'A Hookreel webhook endpoint was paused';
  const settings = `${input.publicUrl}/settings`;
  const text = [
    'Hi,',
    '',
    `Your webhook endpoint ${input.url} failed ${input.failures} deliveries in a row, so it is paused:`,
    'nothing more is sent to it until you resume it.',
    '',
    `Once it answers again, resume it under Webhooks in Settings: ${settings}`,
    '— Hookreel',
  ].join('\n');
  const html = [
    '<p>Hi,</p>',
    `<p>Your webhook endpoint <code>${escapeHtml(input.url)}</code> failed ${input.failures} deliveries in a row, `,
    'so it is paused: nothing more is sent to it until you resume it.</p>',
    `<p>Once it answers again, resume it under Webhooks in <a href="${escapeHtml(settings)}">Settings</a>.<br>— Hookreel</p>`,
  ].join('\n');
  return { subject, text, html };
}
