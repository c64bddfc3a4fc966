import type { FastifyReply } from 'fastify';

/**
 * Server-rendered pages of the local provider and of e-mail verification. Plain HTML and CSS, no script: the
 * app's CSP forbids inline script and the pages do not need any.
 */

/** Sent with these pages instead of the app-wide policy: nothing but our own inline styles and form posts. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f4f4f5;
  font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#18181b}
main{width:100%;max-width:400px;margin:24px;padding:32px;background:#fff;border:1px solid #e4e4e7;border-radius:12px;
  box-shadow:0 1px 3px rgba(0,0,0,.06)}
h1{margin:0 0 4px;font-size:22px;font-weight:600;text-align:center}
p.sub{margin:0 0 24px;text-align:center;color:#71717a}
label{display:block;margin-bottom:6px;font-weight:500}
input{width:100%;padding:10px 12px;border:1px solid #d4d4d8;border-radius:8px;font:inherit}
input:focus{outline:2px solid #6366f1;outline-offset:1px;border-color:transparent}
button.primary{width:100%;margin-top:16px;padding:10px 12px;border:0;border-radius:8px;background:#18181b;color:#fff;
  font:inherit;font-weight:500;cursor:pointer}
button.primary:hover{background:#27272a}
.error{margin:8px 0 0;color:#dc2626;font-size:14px}
p.where{margin:0 0 20px;padding:10px 12px;background:#f4f4f5;border-radius:8px;color:#3f3f46;font-size:13px}
button.link{display:block;margin:14px auto 0;padding:0;border:0;background:none;color:#4f46e5;font:inherit;
  font-size:14px;cursor:pointer;text-decoration:underline}
a.button{display:inline-block;margin-top:8px;padding:10px 16px;border-radius:8px;background:#18181b;color:#fff;
  text-decoration:none;font-weight:500}
.note{margin:20px 0 0;color:#71717a;font-size:13px;text-align:center}
`;

function layout(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Hookreel</title>
<style>${STYLE}</style>
</head>
<body><main>${body}</main></body>
</html>`;
}

const NOTE =
  '<p class="note">Built-in sign-in: this page stands in for Google because no Google client is configured.</p>';

/** Step 1: the address to mail a sign-in link and code to. */
export function renderEmailForm(opts: { action: string; email?: string; error?: string }): string {
  const error = opts.error ? `<p class="error" id="email-error" role="alert">${escapeHtml(opts.error)}</p>` : '';
  return layout(
    'Sign in',
    `<h1>Sign in to Hookreel</h1>
<p class="sub">We will e-mail you a sign-in link and a 6-digit code.</p>
<form method="post" action="${escapeHtml(opts.action)}">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="email" placeholder="you@example.com"
  value="${escapeHtml(opts.email ?? '')}" autofocus required${error ? ' aria-invalid="true" aria-describedby="email-error"' : ''}>
${error}
<button class="primary" type="submit">Send sign-in link</button>
</form>
${NOTE}`,
  );
}

/** Step 2: where the mail went, and the field for its code (the link in the mail works too). */
export function renderCheckMail(opts: {
  codeAction: string;
  restartAction: string;
  email: string;
  whereToLook: string;
  error?: string;
}): string {
  const error = opts.error ? `<p class="error" id="code-error" role="alert">${escapeHtml(opts.error)}</p>` : '';
  return layout(
    'Check your e-mail',
    `<h1>Check your e-mail</h1>
<p class="sub">We sent a sign-in link and a 6-digit code to <strong>${escapeHtml(opts.email)}</strong>.
Open the link in this browser, or type the code here. They work once, for 10 minutes.</p>
<p class="where">${escapeHtml(opts.whereToLook)}</p>
<form method="post" action="${escapeHtml(opts.codeAction)}">
<label for="code">6-digit code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="7"
  placeholder="123456" autofocus required${error ? ' aria-invalid="true" aria-describedby="code-error"' : ''}>
${error}
<button class="primary" type="submit">Sign in</button>
</form>
<form method="get" action="${escapeHtml(opts.restartAction)}"><button class="link" type="submit">Use another address or send a new e-mail</button></form>
${NOTE}`,
  );
}

/**
 * Step 2 by link: a button rather than an instant sign-in, because mail scanners open links too and would
 * spend the one-time link before the person does.
 */
export function renderConfirmLink(opts: { action: string; email: string; token: string }): string {
  return layout(
    'Sign in',
    `<h1>Sign in to Hookreel</h1>
<p class="sub">Continue as <strong>${escapeHtml(opts.email)}</strong>?</p>
<form method="post" action="${escapeHtml(opts.action)}">
<input type="hidden" name="token" value="${escapeHtml(opts.token)}">
<button class="primary" type="submit">Sign in as ${escapeHtml(opts.email)}</button>
</form>
${NOTE}`,
  );
}

export function renderMessagePage(title: string, message: string, link?: { href: string; label: string }): string {
  const action = link
    ? `<p class="sub"><a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`
    : '';
  return layout(title, `<h1>${escapeHtml(title)}</h1><p class="sub">${escapeHtml(message)}</p>${action}`);
}

/** Sends one of these pages with its own strict policy and never from a cache. */
export function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CSP)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(html);
}
