/**
 * Writes docs/API.md, the API reference of inferkit's public entry (src/index.ts), from the doc comments
 * and the types the TypeScript compiler sees. `npm run docs` writes it; `npm run docs -- --check` exits 1
 * when the committed file is out of date (the test suite runs the check).
 *
 * Sections follow the `// …` comments in src/index.ts; each export gets its kind, signature (functions),
 * members with their docs and `@default`s (interfaces, classes, object types), and a link to its source.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const ENTRY = resolve(ROOT, 'src/index.ts');
const OUT = resolve(ROOT, 'docs/API.md');
const MAX_TYPE = 400;

const config = ts.getParsedCommandLineOfConfigFile(resolve(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
const program = ts.createProgram([ENTRY], config?.options ?? { strict: true });
const checker = program.getTypeChecker();
const FLAGS = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

/** One line, clipped at MAX_TYPE characters — after dropping import("<absolute path>"). so the cut does not depend on the checkout's path. */
function clip(s: string): string {
  const one = s.replace(/import\("[^"]*"\)\./g, '').replace(/\s+/g, ' ');
  return one.length > MAX_TYPE ? `${one.slice(0, MAX_TYPE)} …` : one;
}

function docOf(sym: ts.Symbol): string {
  const text = ts.displayPartsToString(sym.getDocumentationComment(checker)).trim();
  const tags = sym
    .getJsDocTags(checker)
    .filter((t) => ['default', 'deprecated', 'throws'].includes(t.name))
    .map((t) => `*@${t.name}* ${ts.displayPartsToString(t.text ?? []).trim()}`);
  return [text, ...tags].filter((s) => s.length > 0).join(' ');
}

/** The source file, without a line number: the reference goes stale only when an API or its doc changes. */
function where(decl: ts.Declaration): string {
  const file = relative(ROOT, decl.getSourceFile().fileName);
  return `[${file}](../${file})`;
}

function kindOf(decl: ts.Declaration, sym: ts.Symbol): string {
  if (ts.isFunctionDeclaration(decl)) {return 'function';}
  if (ts.isClassDeclaration(decl)) {return 'class';}
  if (ts.isInterfaceDeclaration(decl)) {return 'interface';}
  if (ts.isTypeAliasDeclaration(decl)) {return 'type';}
  if (ts.isEnumDeclaration(decl)) {return 'enum';}
  if (ts.isVariableDeclaration(decl)) {
    const t = checker.getTypeOfSymbolAtLocation(sym, decl);
    return t.getCallSignatures().length > 0 ? 'function' : 'const';
  }
  return 'export';
}

function members(type: ts.Type, at: ts.Node): string[] {
  return checker.getPropertiesOfType(type).flatMap((p) => {
    const decl = p.valueDeclaration ?? p.declarations?.[0];
    if (decl === undefined || decl.getSourceFile().fileName.includes('node_modules')) {
      return [];
    }
    const mods = ts.getCombinedModifierFlags(decl);
    if (mods & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected) || p.name.startsWith('#')) {
      return [];
    }
    const optional = p.flags & ts.SymbolFlags.Optional ? '?' : '';
    const t = clip(checker.typeToString(checker.getTypeOfSymbolAtLocation(p, at), at, FLAGS));
    const doc = docOf(p);
    // A well-known-symbol key reads `__@asyncDispose@3147` (a checker-internal id that moves with every edit).
    const name = p.name.startsWith('__@') ? `[Symbol.${p.name.slice(3).replace(/@\d+$/, '')}]` : p.name;
    return [`- \`${name}${optional}: ${t.replace(/`/g, "'")}\`${doc ? ` — ${doc}` : ''}`];
  });
}

function describe(name: string, sym: ts.Symbol, typeOnly: boolean): string {
  const target = sym.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(sym) : sym;
  const decl = target.declarations?.[0];
  if (decl === undefined) {
    return `### \`${name}\`\n`;
  }
  const kind = kindOf(decl, target);
  const lines = [`### \`${name}\``, '', `*${typeOnly ? 'type' : kind}* · ${where(decl)}`, ''];
  const doc = docOf(target);
  if (doc) {
    lines.push(doc, '');
  }
  if (kind === 'function') {
    const t = checker.getTypeOfSymbolAtLocation(target, decl);
    for (const sig of t.getCallSignatures()) {
      lines.push('```ts', `${name}${clip(checker.signatureToString(sig, decl, FLAGS))}`, '```');
    }
  } else if (kind === 'class') {
    const classType = checker.getDeclaredTypeOfSymbol(target);
    lines.push(...members(classType, decl));
  } else if (kind === 'interface') {
    lines.push(...members(checker.getDeclaredTypeOfSymbol(target), decl));
  } else if (kind === 'type') {
    const t = checker.getDeclaredTypeOfSymbol(target);
    const text = checker.typeToString(t, decl, FLAGS | ts.TypeFormatFlags.InTypeAlias);
    const props = t.isUnion() || t.getCallSignatures().length > 0 ? [] : members(t, decl);
    lines.push(props.length > 0 && text.length > 120 ? '' : `\`${clip(text).replace(/`/g, "'")}\``, ...props);
  } else if (kind === 'const') {
    lines.push(`\`${clip(checker.typeToString(checker.getTypeOfSymbolAtLocation(target, decl), decl, FLAGS)).replace(/`/g, "'")}\``);
  }
  return `${lines.join('\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
}

function generate(): string {
  const entry = program.getSourceFile(ENTRY);
  if (entry === undefined) {
    throw new TypeError(`cannot read ${ENTRY}`);
  }
  const sections: Array<{ title: string; items: string[]; names: string[] }> = [];
  const text = entry.getFullText();
  for (const stmt of entry.statements) {
    const comments = ts.getLeadingCommentRanges(text, stmt.getFullStart()) ?? [];
    const heading = comments.map((c) => text.slice(c.pos, c.end)).filter((c) => c.startsWith('// ')).pop();
    if (heading !== undefined || sections.length === 0) {
      sections.push({ title: heading?.slice(3).trim() ?? 'Exports', items: [], names: [] });
    }
    if (!ts.isExportDeclaration(stmt) || stmt.exportClause === undefined || !ts.isNamedExports(stmt.exportClause)) {
      continue;
    }
    const section = sections[sections.length - 1];
    for (const spec of stmt.exportClause.elements) {
      const sym = checker.getSymbolAtLocation(spec.name);
      if (sym !== undefined) {
        section.names.push(spec.name.text);
        section.items.push(describe(spec.name.text, sym, stmt.isTypeOnly || spec.isTypeOnly));
      }
    }
  }
  const filled = sections.filter((s) => s.items.length > 0);
  const anchor = (t: string): string => t.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');
  const toc = filled.map((s) => `- [${s.title}](#${anchor(s.title)}): ${s.names.map((n) => `\`${n}\``).join(', ')}`);
  const body = filled.map((s) => `## ${s.title}\n\n${s.items.join('\n')}`);
  return [
    '# inferkit API reference',
    '',
    'Generated from the doc comments of `src/index.ts` (the package\'s only entry) by `npm run docs`',
    '(`scripts/api-docs.ts`); do not edit by hand. Import everything from `inferkit` (in this repository\'s',
    'notebooks: `./src/index`).',
    '',
    ...toc,
    '',
    ...body,
  ].join('\n');
}

// Types from other modules print as import("<absolute path>").Name: keep the name only, so the
// output does not depend on where the checkout lives.
const md = `${generate().trim().replace(/import\("[^"]*"\)\./g, '')}\n`;
if (process.argv.includes('--check')) {
  const current = (() => {
    try {
      return readFileSync(OUT, 'utf8');
    } catch {
      return '';
    }
  })();
  if (current !== md) {
    process.stderr.write('docs/API.md is out of date with the doc comments of src/index.ts: run npm run docs\n');
    process.exit(1);
  }
  process.stdout.write('docs/API.md is up to date\n');
} else {
  writeFileSync(OUT, md);
  process.stdout.write(`wrote ${relative(ROOT, OUT)} (${md.length} characters)\n`);
}
