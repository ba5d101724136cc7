// Text rules of the house tests over a folder of sources (the web apps' response-type rule): each file with its
// text, the `file:line`s where a pattern matches outside an allow-list, and the allow-listed files that no
// longer need their exception. Node built-ins only, so a web app's tests can import it
// (`@app/kit/testing/source-rules`) without the server-side test helpers.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface SourceText {
  /** The path relative to the folder read. */
  name: string;
  text: string;
}

/** Every file under `dir` whose name matches `names` (TypeScript and TSX by default), with its text. */
export function sourceTexts(dir: string, names = /\.tsx?$/): SourceText[] {
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((name) => {
      const path = join(d, name);
      if (statSync(path).isDirectory()) return walk(path);
      return names.test(name) ? [path] : [];
    });
  return walk(dir).map((path) => ({ name: relative(dir, path), text: readFileSync(path, 'utf8') }));
}

/** `file:line` of each line matching `pattern` in the files outside `allowed`. */
export function linesMatching(files: SourceText[], pattern: RegExp, allowed: ReadonlySet<string>): string[] {
  return files
    .filter((f) => !allowed.has(f.name))
    .flatMap((f) =>
      f.text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${f.name}:${i + 1}`] : [])),
    );
}

/** The files of `allowed` where `pattern` no longer matches: exceptions to take off the list. */
export function unneededExceptions(
  files: SourceText[],
  pattern: RegExp,
  allowed: Iterable<string>,
): string[] {
  const uses = (name: string) =>
    files
      .find((f) => f.name === name)
      ?.text.split('\n')
      .some((l) => pattern.test(l)) ?? false;
  return [...allowed].filter((name) => !uses(name));
}
