import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Comments and docs point at documents that are in the repository: what the product does is docs/product.md, why
 * is docs/decisions/. A reference to "the spec" sends a reader to a document they cannot open, and so does a path
 * that was renamed or never existed. The README stays one screen (decision 196: figures live in
 * docs/performance.md).
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

const README_MAX_LINES = 120;
/** Where repository paths start; a path named in backticks under one of these must exist. */
const REPO_ROOTS = /^(?:apps|packages|docs|e2e|bench|scripts)\//;
/** Placeholders and patterns (`job-<id>-*`, `docs/screens/{name}.png`, `$DATA_DIR/…`) name no one file. */
const PATTERN = /[<>*{}…$]/;

const docFiles = (): string[] => [
  path.join(ROOT, 'README.md'),
  ...files(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')),
];
const decisionNumbers = new Set(
  readdirSync(path.join(ROOT, 'docs/decisions')).flatMap((f) => /^(\d{3})-/.exec(f)?.[1] ?? []),
);
/** A repository path exists; `docs/decisions/NNN` (a record by number, as comments write it) names a record. */
function resolves(repoPath: string): boolean {
  const clean = repoPath.replace(/[#:].*$/, '').replace(/[.,;]+$/, '');
  const record = /^docs\/decisions\/(\d{3})$/.exec(clean);
  if (record) return decisionNumbers.has(record[1]!);
  return existsSync(path.join(ROOT, clean));
}

describe('the README and the docs name what exists', () => {
  it(`the README is one screen: at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(path.join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(README_MAX_LINES);
    expect(lines[0]).toBe('# Hookreel');
  });

  it('every relative link in the README and docs/ opens a file', () => {
    const docs = docFiles();
    expect(docs.length).toBeGreaterThan(100);
    const broken = docs.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)].flatMap(([, target]) => {
        if (/^[a-z]+:/i.test(target!) || target!.startsWith('#')) return [];
        const file = path.resolve(path.dirname(f), target!.replace(/#.*$/, ''));
        return existsSync(file) ? [] : [`${path.relative(ROOT, f)} → ${target}`];
      }),
    );
    expect(broken).toEqual([]);
  });

  it('every repository path the README and docs/ name in backticks exists (decision records excepted)', () => {
    // A decision record describes the code of its day; the other docs describe today's.
    const docs = docFiles().filter((f) => !f.includes(`${path.sep}decisions${path.sep}`));
    const missing = docs.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/`([^`\s]+)`/g)].flatMap(([, named]) =>
        REPO_ROOTS.test(named!) && !PATTERN.test(named!) && !resolves(named!)
          ? [`${path.relative(ROOT, f)}: ${named}`]
          : [],
      ),
    );
    expect(missing).toEqual([]);
  });

  it('every docs/… path named in code, scripts or docs exists', () => {
    const all = AREAS.flatMap((a) => files(path.join(ROOT, a))).concat(path.join(ROOT, 'README.md'));
    const self = path.relative(ROOT, import.meta.filename);
    // Not part of a web address (a provider's `…/docs/api-reference`) or of a longer path.
    const DOCS_PATH = /(?<![\w./-])docs\/[\w./-]*[\w/]/g;
    const missing = all.flatMap((f) => {
      const rel = path.relative(ROOT, f);
      if (rel === self) return [];
      return [...readFileSync(f, 'utf8').matchAll(DOCS_PATH)].flatMap(([named]) =>
        resolves(named!) ? [] : [`${rel}: ${named}`],
      );
    });
    expect(missing).toEqual([]);
  });
});
