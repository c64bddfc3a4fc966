import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Features never import each other (decision 081): what two features share lives in @/lib, @/components or
 * @/hooks, and app/ composes them. Resolves every import of every file under features/ (alias or relative, type
 * or value) and names the feature it lands in.
 */

const FEATURES = path.resolve(import.meta.dirname);
const SRC = path.dirname(FEATURES);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return files(full);
    return /\.tsx?$/.test(e.name) ? [full] : [];
  });
}

const featureOf = (file: string): string | null => {
  const rel = path.relative(FEATURES, file);
  return rel.startsWith('..') ? null : (rel.split(path.sep)[0] ?? null);
};

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

describe('web features', () => {
  it('never import one another', () => {
    const all = files(FEATURES);
    expect(all.length).toBeGreaterThan(20);
    const crossings: string[] = [];
    for (const file of all) {
      const own = featureOf(file);
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
        if (!spec) continue;
        const target = spec.startsWith('@/')
          ? path.join(SRC, spec.slice(2))
          : spec.startsWith('.')
            ? path.resolve(path.dirname(file), spec)
            : null;
        const other = target ? featureOf(target) : null;
        if (other && other !== own) crossings.push(`${path.relative(SRC, file)} → ${spec}`);
      }
    }
    expect(crossings).toEqual([]);
  });
});
