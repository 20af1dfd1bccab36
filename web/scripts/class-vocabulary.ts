/**
 * Every Tailwind class the web app's source can hand to `cn`: the words of its string literals (class
 * names are only ever written out whole, never built from parts). Used to generate
 * `src/lib/class-conflicts.ts` and, in its unit test, to check `cn` against tailwind-merge.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const src = join(import.meta.dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && entry.name !== 'class-conflicts.ts'
      ? [path]
      : [];
  });
}

/** The candidate class names, sorted: lower-case words of string literals (quotes or backticks). */
export function classVocabulary(): string[] {
  const words = new Set<string>();
  for (const file of sourceFiles(src)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/'([^'\n]*)'|"([^"\n]*)"|`([^`]*)`/g)) {
      const literal = match[1] ?? match[2] ?? match[3] ?? '';
      for (const word of literal.split(/\s+/)) {
        if (/^!?-?[a-z][a-z0-9:[\]/.%#()_,=&>*~+!-]*$/.test(word)) words.add(word);
      }
    }
  }
  return [...words].sort();
}
