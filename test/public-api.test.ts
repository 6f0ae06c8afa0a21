import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';

// The compiler names files with forward slashes on every platform.
const path = (rel: string): string => fileURLToPath(new URL(rel, import.meta.url)).replace(/\\/g, '/');
const ROOT = path('../');
const SRC = path('../src/');
const ENTRY = path('../src/index.ts');

/**
 * The named types (interfaces, type aliases, enums, classes declared under src/) that the entry's exports name
 * in their signatures, one level deep: function parameters, return types and type-parameter constraints,
 * exported interfaces' and object types' members and bases, classes' public members and constructors, consts'
 * types. Both what the declarations write (an alias such as `type Name = string` leaves no trace in the checker's
 * types) and what the checker infers (an unannotated return type). Each found type is itself an export, so the
 * check repeated over all exports covers what they reach transitively. One ts.Program for the whole walk.
 */
function signatureTypes(): Array<{ name: string; file: string; via: string; exported: boolean }> {
  const config = ts.getParsedCommandLineOfConfigFile(`${ROOT}tsconfig.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  const program = ts.createProgram([ENTRY], { ...(config?.options ?? { strict: true }), noEmit: true });
  const checker = program.getTypeChecker();
  const entry = program.getSourceFile(ENTRY);
  const moduleSymbol = entry && checker.getSymbolAtLocation(entry);
  if (moduleSymbol === undefined) {
    throw new TypeError(`cannot read ${ENTRY}`);
  }
  const target = (s: ts.Symbol): ts.Symbol => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  const inSrc = (d: ts.Node): boolean => d.getSourceFile().fileName.startsWith(SRC);
  const exports = checker.getExportsOfModule(moduleSymbol);
  const exported = new Set(exports.map(target));
  const found = new Map<ts.Symbol, string>();
  const NAMED = ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Enum | ts.SymbolFlags.Class;
  let via = '';
  /** Records a named type declared under src/; true when `s` is one (the walk stops there). */
  const note = (s: ts.Symbol | undefined): boolean => {
    const t = s && target(s);
    const named = t !== undefined && (t.flags & NAMED) !== 0 && (t.declarations ?? []).some(inSrc);
    if (named && !found.has(t)) {
      found.set(t, via);
    }
    return named;
  };
  // `export type { AClass }`: a user cannot construct it, so its constructor and statics are not its API.
  let typeOnly = false;
  const hidden = (d: ts.Declaration): boolean => {
    const flags = ts.getCombinedModifierFlags(d);
    return (ts.isClassElement(d) && d.name !== undefined && ts.isPrivateIdentifier(d.name))
      || (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0
      || (typeOnly && (ts.isConstructorDeclaration(d) || (flags & ts.ModifierFlags.Static) !== 0));
  };

  // What the checker sees (inferred types too): stop at a named type, open anonymous ones (inline objects,
  // function types, unions, type arguments).
  const seen = new Set<ts.Type>();
  const visitSignature = (sig: ts.Signature): void => {
    (sig.getTypeParameters() ?? []).forEach((p) => visitType(p));
    sig.getParameters().forEach((p) => visitType(checker.getTypeOfSymbol(p)));
    visitType(checker.getReturnTypeOfSignature(sig));
  };
  const visitMembers = (t: ts.Type): void => {
    for (const p of checker.getPropertiesOfType(t)) {
      const decl = p.valueDeclaration ?? p.declarations?.[0];
      if (decl !== undefined && inSrc(decl) && !hidden(decl) && p.name !== 'prototype') {
        visitType(checker.getTypeOfSymbol(p));
      }
    }
    [...t.getCallSignatures(), ...t.getConstructSignatures()].forEach(visitSignature);
    for (const info of checker.getIndexInfosOfType(t)) {
      visitType(info.keyType);
      visitType(info.type);
    }
    (t.isClassOrInterface() ? checker.getBaseTypes(t) : []).forEach((b) => visitType(b));
  };
  const visitType = (t: ts.Type, root = false): void => {
    if (seen.has(t) && !root) {
      return;
    }
    seen.add(t);
    if (!root && t.aliasSymbol !== undefined) {
      note(t.aliasSymbol);
      (t.aliasTypeArguments ?? []).forEach((a) => visitType(a));
    } else if (t.flags & ts.TypeFlags.TypeParameter) { // (not isTypeParameter(): it narrows the other branches to never)
      const c = checker.getBaseConstraintOfType(t);
      if (c !== undefined) {
        visitType(c);
      }
    } else if (t.isUnionOrIntersection()) {
      t.types.forEach((u) => visitType(u));
    } else if (t.flags & ts.TypeFlags.Object) {
      if ((t as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) {
        checker.getTypeArguments(t as ts.TypeReference).forEach((a) => visitType(a));
      }
      if (root || (!note(t.getSymbol()) && !t.isClassOrInterface())) {
        visitMembers(t);
      }
    }
  };

  // What the declarations write (an alias of a primitive, `type Name = string`, leaves no trace in the
  // checker's types): every type reference in their signatures, not in bodies or initializers.
  const visitNode = (n: ts.Node | undefined): void => {
    if (n === undefined) {
      return;
    }
    if (ts.isTypeReferenceNode(n) || ts.isExpressionWithTypeArguments(n)) {
      note(checker.getSymbolAtLocation(ts.isTypeReferenceNode(n) ? n.typeName : n.expression));
    }
    if (ts.isFunctionLike(n)) {
      n.typeParameters?.forEach(visitNode);
      n.parameters.forEach((p) => visitNode(p.type));
      visitNode(n.type);
    } else if (ts.isClassLike(n) || ts.isInterfaceDeclaration(n)) {
      n.heritageClauses?.forEach(visitNode);
      (n.members as ts.NodeArray<ts.Declaration>).filter((m) => !hidden(m)).forEach(visitNode);
    } else if (ts.isVariableDeclaration(n) || ts.isPropertyDeclaration(n)) {
      visitNode(n.type ?? (n.initializer && ts.isFunctionLike(n.initializer) ? n.initializer : undefined));
    } else if (!ts.isBlock(n) && !ts.isExpression(n)) {
      ts.forEachChild(n, visitNode);
    }
  };

  for (const e of exports) {
    const sym = target(e);
    via = e.name;
    typeOnly = (e.declarations ?? []).some((d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly));
    (sym.declarations ?? []).forEach(visitNode);
    if (sym.flags & ts.SymbolFlags.Value && !typeOnly) {
      visitType(checker.getTypeOfSymbol(sym), true); // a function's signatures, a const's type, a class's static side
    }
    if (sym.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Class)) {
      visitType(checker.getDeclaredTypeOfSymbol(sym), true); // members, bases, a union's parts
    }
  }
  // A private copy of an exported type of the same name and shape (two `HtmlDisplay { html(s): void }`) is
  // nameable: the exported one fits wherever the copy is asked for, and the other way round.
  const byName = new Map(exports.filter((e) => target(e).flags & NAMED).map((e) => [e.name, checker.getDeclaredTypeOfSymbol(target(e))]));
  const sameAsExported = (s: ts.Symbol): boolean => {
    const twin = byName.get(s.name);
    const t = checker.getDeclaredTypeOfSymbol(s);
    return twin !== undefined && checker.isTypeAssignableTo(t, twin) && checker.isTypeAssignableTo(twin, t);
  };
  return [...found].map(([s, v]) => ({
    name: s.name,
    file: (s.declarations ?? []).filter(inSrc).map((d) => d.getSourceFile().fileName.slice(ROOT.length))[0] ?? '?',
    via: v,
    exported: exported.has(s) || sameAsExported(s),
  }));
}

/** Types an exported signature names that the entry does not export, `Name (file)` → why. Keep it short. */
const NOT_EXPORTED: Record<string, string> = {};

describe('public API (src/index.ts)', () => {
  it('exposes the notebook workflow end to end from the root entry', () => {
    const fns = [
      'inferenceService', 'containerService', 'toYaml', 'fromYaml', 'runtimeConfig', 'serviceHostname', 'statusRow',
      'resolveModel', 'loadTokenClassifier', 'loadChronosBolt', 'seasonalNaive', 'theta', 'autoEts', 'selectEts', 'etsForecast', 'mstl', 'mstlDecompose', 'localForecaster',
      'serve', 'remote', 'frameToInputs', 'forecastToFrame', 'batchForecast', 'forecastFigure', 'renderPng',
      'evaluate', 'loadDataset', 'writeNerFixtureRepo', 'parseContract', 'isInferkitError',
      'validateManifest', 'parseManifest', 'findInlineSecrets', 'cluster', 'availableCpus',
      'crossValidation', 'crossValidationFigure', 'scoreFigure', 'seasonalPeriods', 'parseFrequency', 'formatFrequency', 'readFrameSeries',
      'displayFrame', 'frameHtml', 'isUnivariate', 'seriesValues', 'displayFigure', 'figureOutputHtml', 'createBaseline', 'startWorkerBaseline',
    ] as const;
    for (const name of fns) {
      expect(typeof api[name], name).toBe('function');
    }
  });

  it('round-trips a manifest through the root entry without touching the network', () => {
    const m = api.inferenceService({ name: 'bert', modelId: 'dslim/bert-base-NER', protocol: 'v2' });
    const docs = api.fromYaml(api.toYaml(m));
    expect(docs).toHaveLength(1);
    const isvc = api.InferenceServiceSchema.parse(docs[0]);
    expect(api.runtimeConfig(isvc)).toMatchObject({ modelName: 'bert', modelId: 'dslim/bert-base-NER', protocol: 'v2' });
    expect(api.serviceHostname(isvc)).toBe('bert.default.example.com');
  });

  it('validates a manifest against KServe\'s CRD schema from the root entry', async () => {
    const text = api.toYaml(api.inferenceService({ name: 'bert', modelId: 'o/m' })).replace('modelFormat:', 'modelFromat:');
    const r = await api.validateManifest(text);
    expect(r.errors).toContainEqual({
      path: 'documents[0].spec.predictor.model.modelFromat', message: 'unknown field "modelFromat"; did you mean "modelFormat"?',
    });
  });

  it('exports every type that an exported signature names, so a user can write it down', { timeout: 60_000 }, () => {
    const types = signatureTypes();
    const unexported = types.filter((t) => !t.exported);
    const missing = unexported.filter((t) => !(`${t.name} (${t.file})` in NOT_EXPORTED)).map((t) => `${t.name} (${t.file}), named by ${t.via}`);
    expect(missing, 'export these from src/index.ts with `export type { … }`').toEqual([]);
    const stale = Object.keys(NOT_EXPORTED).filter((k) => !unexported.some((t) => `${t.name} (${t.file})` === k));
    expect(stale, 'exported or no longer named: remove from NOT_EXPORTED').toEqual([]);
    // The walk sees the types the entry exports, so it did walk.
    expect(types.map((t) => t.name)).toEqual(expect.arrayContaining(['ForecastRequest', 'ResolveModelOptions', 'ForecastModel']));
  });
});
