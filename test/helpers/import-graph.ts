import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

/** One import as written in a file: static, `export … from`, dynamic `import("…")` or a type-position `import("…")`. */
export interface ImportEdge {
  /** The importing file, relative to the repository root with `/` separators. */
  readonly from: string;
  /** The specifier as written. */
  readonly specifier: string;
  /** The imported file relative to the repository root (`.js` read as `.ts`), or undefined for a package. */
  readonly to: string | undefined;
  readonly line: number;
}

/** Every `.ts` file under `dir` (relative to `root`), sorted, with `/` separators. */
export function typeScriptFiles(root: string, dir: string): string[] {
  const found: string[] = [];
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && entry.name.endsWith(".ts")) found.push(toPosix(relative(root, path)));
    }
  };
  walk(join(root, dir));
  return found.sort();
}

/**
 * The imports of one file, read from its syntax tree rather than by pattern so that a dynamic `import("…")` split
 * over lines, an `import type` and a `typeof import("…")` in a type are all seen: each of them ties two modules.
 */
export function importsOf(root: string, file: string): ImportEdge[] {
  const text = readFileSync(join(root, file), "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const add = (node: ts.Node, literal: ts.Expression | undefined): void => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    edges.push({ from: file, specifier: literal.text, to: resolveRelative(file, literal.text), line });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node, node.moduleSpecifier);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node, node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node, node.argument.literal);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node, node.moduleReference.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** A relative specifier as a repository path (`./x.js` → `dir/x.ts`); a package name stays unresolved. */
function resolveRelative(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  const target = toPosix(relative(resolve("/"), resolve("/", dirname(file), specifier)));
  return target.replace(/\.js$/, ".ts");
}

function toPosix(path: string): string {
  return path.split(sep).join("/");
}
