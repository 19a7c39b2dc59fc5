/**
 * README.md and docs/*.md name files and link to pages and their sections. Every relative link must
 * lead to a file of the repository (and its `#section` to a heading there), and every backticked
 * file path must name a file or folder that exists, so the manuals cannot keep naming a file that
 * moved or a document the repository does not hold.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/project-root.js';

const PAGES = [
  'README.md',
  ...readdirSync(join(PROJECT_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Not sources: build output, installed packages, the embedded database's default directory. */
const GENERATED = /^(dist|node_modules|data|test-output|\.git)(\/|$)/;
const EXTENSIONS =
  'ts|tsx|js|mjs|cjs|json|jsonc|md|sql|prisma|sh|graphql|yml|yaml|toml|conf|cfg|vcl|html|css|png|svg|ini';
/** A path with a folder (`src/app.ts`, `deploy/`), or a bare file name of the project's own kinds (`codegen.ts`). */
const FILE_PATH = new RegExp(
  `^([\\w.@-]+/)+[\\w.@-]*\\.(${EXTENSIONS})$|^[a-z][\\w.-]*/([\\w.-]+/)*$|^[\\w.-]+\\.(ts|mjs|cjs|md|jsonc|graphql|prisma)$`,
);

/** Every path of the repository's files and folders, relative to its root. */
function repositoryPaths(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(PROJECT_ROOT, dir), { withFileTypes: true })) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (GENERATED.test(path)) continue;
      out.push(entry.isDirectory() ? `${path}/` : path);
      if (entry.isDirectory()) walk(path);
    }
  };
  walk('');
  return out;
}
const PATHS = repositoryPaths();

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsOf = (page: string): Set<string> =>
  new Set(
    [...readFileSync(join(PROJECT_ROOT, page), 'utf8').matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => anchorOf(m[1]!)),
  );

/** The page's text outside fenced code blocks (commands and sample output there are not references). */
const proseOf = (page: string): string =>
  readFileSync(join(PROJECT_ROOT, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');

/** A named path exists when a file or folder is at it, or ends with it (`rest/router.ts` under src/). */
const exists = (path: string): boolean => {
  const p = path.replace(/^\.\//, '');
  return PATHS.some((known) => known === p || known.endsWith(`/${p}`) || (p.endsWith('/') ? false : known === `${p}/`));
};

describe.each(PAGES)('%s', (page) => {
  it('links only to files of the repository and to headings they have', () => {
    const broken: string[] = [];
    for (const [, target] of proseOf(page).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      const [file = '', anchor] = target!.split('#');
      const resolved = file ? relative(PROJECT_ROOT, join(PROJECT_ROOT, dirname(page), file)) : page;
      if (!existsSync(join(PROJECT_ROOT, resolved))) broken.push(`${target}: no file ${resolved}`);
      else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
        broken.push(`${target}: no heading #${anchor} in ${resolved}`);
    }
    expect(broken, broken.join(', ')).toEqual([]);
  });

  it('names only files and folders that exist', () => {
    const named = [...proseOf(page).matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
    const missing = named.filter((n) => FILE_PATH.test(n) && !GENERATED.test(n) && !exists(n));
    expect([...new Set(missing)], [...new Set(missing)].join(', ')).toEqual([]);
  });
});

describe('the existence check', () => {
  it('knows a file by its path from the root or from a folder inside, and refuses a moved one', () => {
    expect(exists('src/rest/router.ts') === existsSync(join(PROJECT_ROOT, 'src/rest/router.ts'))).toBe(true);
    expect(exists('package.json')).toBe(true);
    expect(exists('repositories/no-such-file.ts')).toBe(false);
    expect(statSync(join(PROJECT_ROOT, 'docs')).isDirectory() && exists('docs/')).toBe(true);
  });
});

describe('citations in the code', () => {
  const sources = PATHS.filter(
    (p) => /^(src|test|scripts|bench|prisma)\/.*\.(ts|mjs|cjs|prisma)$/.test(p) && !p.startsWith('src/generated/'),
  );

  it('cite only sections docs/ has', () => {
    const broken: string[] = [];
    for (const file of sources) {
      for (const [, page, anchor] of readFileSync(join(PROJECT_ROOT, file), 'utf8').matchAll(
        /\bdocs\/([\w-]+\.md)#([\w-]+)/g,
      )) {
        if (!existsSync(join(PROJECT_ROOT, 'docs', page!)) || !anchorsOf(`docs/${page}`).has(anchor!))
          broken.push(`${file}: docs/${page}#${anchor}`);
      }
    }
    expect(broken, broken.join(', ')).toEqual([]);
  });

  it('cite no document the repository does not hold (the external specification, DESIGN.md)', () => {
    const dangling = sources.filter(
      (file) =>
        file !== 'test/unit/docs-links.test.ts' &&
        /DESIGN\.md|\bspec (section )?\d/.test(readFileSync(join(PROJECT_ROOT, file), 'utf8')),
    );
    expect(dangling).toEqual([]);
  });

  it('keep the README a quick start of at most 400 lines (details live in docs/)', () => {
    const lines = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8').split('\n').length - 1;
    expect(lines).toBeLessThanOrEqual(400);
  });
});
