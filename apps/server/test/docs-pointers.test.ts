import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Comments and docs point at documents that are in the repository: what the product does is docs/product.md, why
 * is docs/decisions/. A reference to "the spec" sends a reader to a document they cannot open.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const AREAS = ['apps', 'packages', 'bench', 'e2e', 'docs', 'scripts'];
const SKIP = new Set(['node_modules', 'dist', '.tmp', 'test-results', 'playwright-report']);
/** "the spec", "spec section 4", "the spec's message", "(spec 7, …)", "(spec)"; not an engine ActorSpec or a Playwright spec file. */
const SPEC_REFERENCE =
  /\bthe spec\b|\bspec(?:'s)? (?:section|messages?|words|entries|default)|\(spec \d|\(spec\)\.?\s*(?:\*\/)?$|\bproduct spec\b/i;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name)) return [];
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return files(full);
    return /\.(tsx?|m?js|md|sh)$/.test(e.name) ? [full] : [];
  });
}

describe('documentation pointers', () => {
  it('no comment or doc cites "the spec"; they point at docs/product.md or a decision instead', () => {
    const all = AREAS.flatMap((a) => files(path.join(ROOT, a)));
    expect(all.length).toBeGreaterThan(300);
    const self = path.relative(ROOT, import.meta.filename);
    const hits = all.flatMap((f) => {
      const rel = path.relative(ROOT, f);
      if (rel === self) return [];
      return readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (SPEC_REFERENCE.test(line) ? [`${rel}:${i + 1}: ${line.trim()}`] : []));
    });
    expect(hits).toEqual([]);
  });

  it('every file and folder that the architecture and contributing pages name exists', () => {
    // A backticked path from the repository's root (`apps/…`, `packages/…`, …) or a relative Markdown link;
    // templates (`<area>`) and globs are patterns, not pointers.
    const pointers = ['docs/architecture.md', 'docs/contributing.md'].flatMap((doc) => {
      const text = readFileSync(path.join(ROOT, doc), 'utf8');
      const paths = [...text.matchAll(/`((?:apps|packages|docs|e2e|bench|scripts)\/[^`\s]*)`/g)].map((m) => m[1]!);
      const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((l) => !/^[a-z]+:/.test(l))
        .map((l) => path.relative(ROOT, path.resolve(path.dirname(path.join(ROOT, doc)), l)));
      return [...paths, ...links]
        .map((p) => p.replace(/#.*$/, ''))
        .filter((p) => !/[<>*{}]/.test(p))
        .map((p) => ({ doc, p }));
    });
    expect(pointers.length).toBeGreaterThan(40);
    const broken = pointers.filter(({ p }) => !existsSync(path.join(ROOT, p))).map(({ doc, p }) => `${doc}: ${p}`);
    expect(broken).toEqual([]);
  });
});
