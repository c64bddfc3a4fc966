import { PUBLIC_STATS_ELEMENT_ID, publicFigures, type PublicStats } from '@hookreel/contracts';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON that stays JSON inside a `<script>` element: no `<` can close it early. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * A prerendered page with this installation's figures written in (decision 115): the text of every element marked
 * `data-figure="key"` / `data-figure-label="key"` becomes the figure and its label, exactly as the page itself words
 * them (`publicFigures`), and the figures ride along as JSON for the app's first render to agree with the markup.
 * Pages without marked figures are returned unchanged.
 */
export function withPublicFigures(html: string, stats: PublicStats): string {
  if (!html.includes('data-figure=')) return html;
  let out = html;
  for (const figure of publicFigures(stats)) {
    for (const [attribute, text] of [
      ['data-figure', figure.value],
      ['data-figure-label', figure.label],
    ] as const) {
      const element = new RegExp(`(<([a-z]+)\\b[^>]*\\s${attribute}="${figure.key}"[^>]*>)[^<]*(</\\2>)`, 'g');
      out = out.replace(
        element,
        (_match, open: string, _tag: string, close: string) => open + escapeHtml(text) + close,
      );
    }
  }
  const data = `<script type="application/json" id="${PUBLIC_STATS_ELEMENT_ID}">${scriptJson(stats)}</script>`;
  return out.replace('</body>', `${data}</body>`);
}
