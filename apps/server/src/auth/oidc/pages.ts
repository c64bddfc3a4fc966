/**
 * Server-rendered pages of the local provider. Plain HTML and CSS, no script: the app's CSP forbids inline
 * script and the pages do not need any (each recent account is a one-button form).
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
ul{list-style:none;margin:0;padding:0;border:1px solid #e4e4e7;border-radius:8px;overflow:hidden}
li+li{border-top:1px solid #e4e4e7}
li form{margin:0}
button.account{display:flex;align-items:center;gap:12px;width:100%;padding:12px 14px;border:0;background:#fff;
  font:inherit;text-align:left;cursor:pointer}
button.account:hover,button.account:focus-visible{background:#f4f4f5;outline:none}
.avatar{flex:none;width:32px;height:32px;border-radius:50%;background:#6366f1;color:#fff;display:flex;
  align-items:center;justify-content:center;font-weight:600;text-transform:uppercase}
.divider{margin:16px 0;text-align:center;color:#a1a1aa;font-size:13px}
label{display:block;margin-bottom:6px;font-weight:500}
input{width:100%;padding:10px 12px;border:1px solid #d4d4d8;border-radius:8px;font:inherit}
input:focus{outline:2px solid #6366f1;outline-offset:1px;border-color:transparent}
button.primary{width:100%;margin-top:16px;padding:10px 12px;border:0;border-radius:8px;background:#18181b;color:#fff;
  font:inherit;font-weight:500;cursor:pointer}
button.primary:hover{background:#27272a}
.error{margin:8px 0 0;color:#dc2626;font-size:14px}
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

export function renderAccountChooser(opts: {
  action: string;
  recent: string[];
  email?: string;
  error?: string;
}): string {
  const action = escapeHtml(opts.action);
  // One form per recent account: a shared form would make the first account the default button, so Enter in
  // the e-mail field would sign in as that account instead of the address typed.
  const recent = opts.recent.length
    ? `<ul>${opts.recent
        .map(
          (email) =>
            `<li><form method="post" action="${action}"><button class="account" type="submit" name="account" value="${escapeHtml(email)}">` +
            `<span class="avatar" aria-hidden="true">${escapeHtml(email.charAt(0))}</span>${escapeHtml(email)}</button></form></li>`,
        )
        .join('')}</ul><div class="divider">or use another account</div>`
    : '';
  const error = opts.error ? `<p class="error" id="email-error" role="alert">${escapeHtml(opts.error)}</p>` : '';
  return layout(
    'Choose an account',
    `<h1>Choose an account</h1>
<p class="sub">to continue to Hookreel</p>
${recent}
<form method="post" action="${action}">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="email" placeholder="you@example.com"
  value="${escapeHtml(opts.email ?? '')}"${opts.recent.length ? '' : ' autofocus'} required${error ? ' aria-invalid="true" aria-describedby="email-error"' : ''}>
${error}
<button class="primary" type="submit">Continue</button>
</form>
<p class="note">Local sign-in: no password is needed. This page stands in for Google because no Google client is configured.</p>`,
  );
}

export function renderMessagePage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p class="sub">${escapeHtml(message)}</p>`);
}
