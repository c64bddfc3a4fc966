// Writes dist/prerendered/{landing,login,register}.html after `vite build` (decision 114): the public screens as
// HTML that paints with the CSS alone. The app is not requested until the page has loaded (or the visitor acts),
// then it hydrates the same markup. Run by `npm run build`; needs dist/ and the SSR bundle in dist-ssr/.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const here = import.meta.dirname;
const dist = path.join(here, 'dist');
const ssr = path.join(here, 'dist-ssr');
const { render, PRERENDERED_ROUTES } = await import(pathToFileURL(path.join(ssr, 'prerender.js')).href);

const template = readFileSync(path.join(dist, 'index.html'), 'utf8');
const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(template);
if (!entry) throw new Error('prerender: no module entry in dist/index.html');

// The loader: fetches the app once the page has loaded, painted a frame and the browser is idle, or at the first
// key press, touch or click, whichever comes first. Links work before it (they are plain anchors). A button clicked before the
// app has taken over its markup is held and clicked again once React has hydrated it (React marks hydrated nodes
// with its __reactProps$ key), so no click is lost; if the markup was replaced instead, the held click is dropped.
const boot = `const entry=${JSON.stringify(entry[1])};
const live=(el)=>Object.keys(el).some((k)=>k.startsWith('__reactProps$'));
let held=null;
const replay=()=>{if(!held)return;if(!held.isConnected){held=null;return}if(live(held)){const el=held;held=null;el.click()}else setTimeout(replay,50)};
const start=()=>{if(window.__hookreelBoot)return;window.__hookreelBoot=1;import(entry).then(replay)};
addEventListener('click',(e)=>{const el=e.target instanceof Element&&e.target.closest('button,[role=button],[role=switch],[role=tab]');if(!el||live(el))return;e.preventDefault();e.stopPropagation();held=el;start();if(window.__hookreelBoot)replay()},true);
for(const e of ['pointerdown','keydown','touchstart'])addEventListener(e,start,{capture:true,once:true,passive:true});
const idle=()=>('requestIdleCallback' in window?requestIdleCallback(start,{timeout:1500}):setTimeout(start,200));
const painted=()=>requestAnimationFrame(()=>setTimeout(idle,0));
document.readyState==='complete'?painted():addEventListener('load',painted,{once:true});
`;
const bootName = `assets/boot-${createHash('sha256').update(boot).digest('hex').slice(0, 8)}.js`;
writeFileSync(path.join(dist, bootName), boot);

const shell = template
  .replace(entry[0], `<script type="module" src="/${bootName}"></script>`)
  .replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
mkdirSync(path.join(dist, 'prerendered'), { recursive: true });
const done = new Set();
for (const [route, name] of Object.entries(PRERENDERED_ROUTES)) {
  if (done.has(name)) continue;
  done.add(name);
  const html = shell.replace('<div id="root"></div>', `<div id="root">${render(route)}</div>`);
  if (html === shell) throw new Error('prerender: no <div id="root"></div> in dist/index.html');
  // The server writes this installation's figures into the landing page's marked elements (decision 115).
  if (name === 'landing' && !html.includes('data-figure='))
    throw new Error('prerender: the landing page has no figures');
  writeFileSync(path.join(dist, 'prerendered', `${name}.html`), html);
}
writeFileSync(path.join(dist, 'prerendered', 'routes.json'), JSON.stringify(PRERENDERED_ROUTES));
rmSync(ssr, { recursive: true, force: true });
console.log(`[prerender] ${[...done].join(', ')} → dist/prerendered/`);
