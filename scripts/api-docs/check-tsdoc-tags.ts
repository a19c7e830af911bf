/**
 * The TSDoc tag check: every export of every published entry point carries the tags its readers
 * need. The rules, for what each package declares in its own src/:
 *
 * - `@param name` for every parameter, and `@returns` unless it returns nothing (`void`,
 *   `undefined`, `never`, or a promise of one of them), on exported functions (also `const`s
 *   holding an arrow function), on the public methods and constructors of exported classes, and
 *   on the methods of exported interfaces.
 * - `@default` on every optional property of an exported type whose name ends in `Options`
 *   (also the properties it inherits from a type of the same package). TypeDoc shows a plain
 *   value as code (`@default 5000`); a default in words needs a code span to read as text
 *   (``@default `undefined`: no limit``).
 * - `@throws` on every exported function and class method or constructor that can throw: its
 *   body holds a `throw` statement, or calls a ctxkit function that can throw. A called function
 *   can throw when its own body can, by the same rule, or, having no body (a method of an
 *   interface such as `OptionChecker`), when its declaration has a `@throws` tag. Calls into
 *   other libraries (JSON.stringify, Kysely, ...) do not count, nor what a `try` with a `catch`
 *   encloses. Nested functions count only when called, or when given directly to a method of an
 *   array (`messages.map((m) => check(m))`), which runs them during the call; other callbacks
 *   may run later (vitest's `it`, fast-check's `map`).
 *
 * Methods of interfaces need no `@throws` by rule (their behaviour is the implementation's), but
 * one documented there makes their callers need one.
 */
import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import ts from 'typescript';
import { type PublishedPackage, REPO_ROOT } from './published-packages.js';

/**
 * Packages whose TSDoc is not yet held to these rules (they are being rewritten): the check
 * skips them. Remove a package from this list once its tags are filled in.
 */
export const PACKAGES_PENDING_TSDOC_TAGS: readonly string[] = [];

/** One exported symbol that misses tags. */
export interface TagFinding {
  /** The package, such as `@ctxkit/context-core`. */
  package: string;
  /** The symbol, such as `keepNewest` or `HistoryStore.append`. */
  symbol: string;
  /** What is missing, such as `@param limit` or `@returns`. */
  missing: string[];
}

/**
 * Checks the exports of `packages` against the tag rules above.
 *
 * @param packages - the packages to check, with their entry points
 * @returns the findings, one per symbol that misses a tag, in the order of the packages and of
 *   their exports; empty when every tag is there
 */
export function checkTsdocTags(packages: readonly PublishedPackage[]): TagFinding[] {
  const program = createProgram(packages.flatMap((pkg) => pkg.entryPoints.map((e) => e.source)));
  const checker = program.getTypeChecker();
  const throwing = new ThrowAnalysis(checker, (file) => isOwnSource(program, file));
  const findings: TagFinding[] = [];
  for (const pkg of packages) {
    const seen = new Set<ts.Declaration>();
    const report = (symbol: string, missing: string[]) => {
      if (missing.length > 0) findings.push({ package: pkg.name, symbol, missing });
    };
    const ownDeclarations = (symbol: ts.Symbol) =>
      (symbol.declarations ?? []).filter((declaration) => {
        if (seen.has(declaration) || !isInside(declaration, pkg.dir)) return false;
        seen.add(declaration);
        return true;
      });
    for (const entry of pkg.entryPoints) {
      const sourceFile = program.getSourceFile(entry.source);
      const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
      if (moduleSymbol === undefined) throw new Error(`${entry.source}: not a module`);
      for (const exported of checker.getExportsOfModule(moduleSymbol)) {
        const symbol =
          exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const name = exported.name;
        for (const declaration of ownDeclarations(symbol)) {
          if (ts.isFunctionDeclaration(declaration)) {
            if (isOverloadImplementation(declaration)) continue;
            report(name, missingFunctionTags(declaration, checker, throwing));
          } else if (ts.isVariableDeclaration(declaration)) {
            const initializer = declaration.initializer;
            if (
              initializer &&
              (ts.isArrowFunction(initializer) || ts.isFunctionExpression(initializer))
            ) {
              report(name, missingFunctionTags(initializer, checker, throwing, declaration));
            }
          } else if (ts.isClassDeclaration(declaration)) {
            for (const member of declaration.members) {
              if (!isPublicMember(member)) continue;
              if (ts.isConstructorDeclaration(member)) {
                if (isOverloadImplementation(member)) continue;
                report(`${name} constructor`, missingFunctionTags(member, checker, throwing));
              } else if (ts.isMethodDeclaration(member)) {
                if (isOverloadImplementation(member)) continue;
                report(
                  `${name}.${memberName(member)}`,
                  missingFunctionTags(member, checker, throwing),
                );
              }
            }
          } else if (ts.isInterfaceDeclaration(declaration)) {
            for (const member of declaration.members) {
              if (ts.isMethodSignature(member)) {
                report(
                  `${name}.${memberName(member)}`,
                  missingFunctionTags(member, checker, undefined),
                );
              }
            }
          }
        }
        if (
          name.endsWith('Options') &&
          symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)
        ) {
          for (const property of checker.getPropertiesOfType(
            checker.getDeclaredTypeOfSymbol(symbol),
          )) {
            for (const declaration of ownDeclarations(property)) {
              if (isOptionalProperty(declaration) && !hasTag(declaration, 'default')) {
                report(`${name}.${property.name}`, ['@default']);
              }
            }
          }
        }
      }
    }
  }
  return findings;
}

/**
 * Renders findings one a line, as `package: symbol: what is missing`.
 *
 * @param findings - what {@link checkTsdocTags} found
 * @returns the lines, joined by newlines
 */
export function formatTagFindings(findings: readonly TagFinding[]): string {
  return findings
    .map((finding) => `${finding.package}: ${finding.symbol}: ${finding.missing.join(', ')}`)
    .join('\n');
}

// --- internal helpers ---

function createProgram(rootNames: string[]): ts.Program {
  const base = JSON.parse(readFileSync(join(REPO_ROOT, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: unknown;
  };
  const { options, errors } = ts.convertCompilerOptionsFromJson(base.compilerOptions, REPO_ROOT);
  if (errors.length > 0)
    throw new Error(ts.flattenDiagnosticMessageText(errors[0]!.messageText, '\n'));
  return ts.createProgram({ rootNames, options: { ...options, noEmit: true } });
}

type FunctionLike =
  | ts.FunctionDeclaration
  | ts.FunctionExpression
  | ts.ArrowFunction
  | ts.MethodDeclaration
  | ts.MethodSignature
  | ts.ConstructorDeclaration;

function missingFunctionTags(
  fn: FunctionLike,
  checker: ts.TypeChecker,
  throwing: ThrowAnalysis | undefined,
  documented: ts.Node = fn,
): string[] {
  const tags = ts.getJSDocTags(documented);
  const paramTags = tags.filter(ts.isJSDocParameterTag);
  const documentedParams = new Set(paramTags.map((tag) => tag.name.getText()));
  const missing: string[] = [];
  fn.parameters.forEach((parameter, index) => {
    const name = parameter.name.getText();
    if (name === 'this') return;
    // A destructured parameter has no name of its own: the tag in its position names it.
    const documentedHere = ts.isIdentifier(parameter.name)
      ? documentedParams.has(name)
      : paramTags.length > index;
    if (!documentedHere) missing.push(`@param ${name}`);
  });
  if (
    !ts.isConstructorDeclaration(fn) &&
    returnsSomething(fn, checker) &&
    !hasTagIn(tags, 'returns')
  ) {
    missing.push('@returns');
  }
  if (throwing?.canThrow(fn) && !hasTagIn(tags, 'throws')) missing.push('@throws');
  return missing;
}

function returnsSomething(fn: FunctionLike, checker: ts.TypeChecker): boolean {
  const signature = checker.getSignatureFromDeclaration(fn);
  if (signature === undefined) return true;
  if (
    checker.getTypePredicateOfSignature(signature)?.kind === ts.TypePredicateKind.AssertsIdentifier
  ) {
    return false;
  }
  return !isNothing(checker.getReturnTypeOfSignature(signature), checker);
}

function isNothing(type: ts.Type, checker: ts.TypeChecker): boolean {
  if (type.isUnion()) return type.types.every((member) => isNothing(member, checker));
  if (type.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Never)) return true;
  if (type.getSymbol()?.name === 'Promise') {
    const [awaited] = checker.getTypeArguments(type as ts.TypeReference);
    return awaited !== undefined && isNothing(awaited, checker);
  }
  return false;
}

/** Whether each function can throw by the rule in this file's header, remembered per function. */
class ThrowAnalysis {
  private readonly known = new Map<ts.Node, boolean>();

  /**
   * @param checker - the program's type checker
   * @param isOwn - whether a source file is the repository's own code (not a library's)
   */
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly isOwn: (file: ts.SourceFile) => boolean,
  ) {}

  canThrow(fn: ts.SignatureDeclaration): boolean {
    if (!this.isOwn(fn.getSourceFile())) return false;
    const implementation = this.implementationOf(fn);
    if (implementation === undefined) return hasTag(fn, 'throws');
    const remembered = this.known.get(implementation);
    if (remembered !== undefined) return remembered;
    this.known.set(implementation, false); // a recursive call adds nothing
    const result = this.bodyCanThrow(implementation.body!);
    this.known.set(implementation, result);
    return result;
  }

  private implementationOf(fn: ts.SignatureDeclaration): FunctionWithBody | undefined {
    if (hasBody(fn)) return fn;
    const name = fn.name;
    const symbol = name && this.checker.getSymbolAtLocation(name);
    return symbol?.declarations?.find((declaration): declaration is FunctionWithBody =>
      hasBody(declaration),
    );
  }

  private bodyCanThrow(body: ts.Node): boolean {
    const visit = (node: ts.Node): boolean => {
      if (ts.isThrowStatement(node)) return true;
      if (ts.isTryStatement(node)) {
        const { tryBlock, catchClause, finallyBlock } = node;
        return (
          (catchClause === undefined ? visit(tryBlock) : visit(catchClause.block)) ||
          (finallyBlock !== undefined && visit(finallyBlock))
        );
      }
      if (isNestedFunction(node) && !this.isCallbackRunByTheCall(node)) return false;
      if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && this.calleeCanThrow(node)) {
        return true;
      }
      return ts.forEachChild(node, visit) ?? false;
    };
    return ts.forEachChild(body, visit) ?? false;
  }

  /**
   * Whether `node` is a function given directly to a method of an array (`messages.map((m) =>
   * ...)`), which runs it during the call; other callbacks may run later (`it`, `fc.map`).
   */
  private isCallbackRunByTheCall(node: ts.Node): boolean {
    const parent = node.parent;
    if (!(ts.isArrowFunction(node) || ts.isFunctionExpression(node))) return false;
    if (!ts.isCallExpression(parent)) return false;
    if (!parent.arguments.some((argument) => argument === node)) return false;
    const method = this.checker.getResolvedSignature(parent)?.getDeclaration();
    const owner = method?.parent;
    return (
      owner !== undefined &&
      ts.isInterfaceDeclaration(owner) &&
      ARRAY_TYPES.has(owner.name.text) &&
      !this.isOwn(owner.getSourceFile())
    );
  }

  private calleeCanThrow(call: ts.CallExpression | ts.NewExpression): boolean {
    const declaration = this.checker.getResolvedSignature(call)?.getDeclaration();
    if (declaration === undefined || ts.isJSDocSignature(declaration)) return false;
    return this.canThrow(declaration);
  }
}

/** The array types whose methods run the callbacks they are given before returning. */
const ARRAY_TYPES = new Set(['Array', 'ReadonlyArray']);

type FunctionWithBody = ts.FunctionLikeDeclaration & { body: ts.Node };

function hasBody(node: ts.Node): node is FunctionWithBody {
  return ts.isFunctionLike(node) && 'body' in node && node.body !== undefined;
}

function isNestedFunction(node: ts.Node): boolean {
  return ts.isFunctionLike(node) || ts.isClassLike(node);
}

function isOverloadImplementation(
  fn: ts.FunctionDeclaration | ts.MethodDeclaration | ts.ConstructorDeclaration,
): boolean {
  if (fn.body === undefined) return false;
  const parent = fn.parent;
  const siblings: readonly ts.Node[] = ts.isClassLike(parent)
    ? parent.members
    : ts.isSourceFile(parent) || ts.isModuleBlock(parent)
      ? parent.statements
      : [];
  return siblings.some(
    (sibling) =>
      sibling !== fn &&
      sibling.kind === fn.kind &&
      (sibling as typeof fn).body === undefined &&
      (sibling as typeof fn).name?.getText() === fn.name?.getText(),
  );
}

function isPublicMember(member: ts.ClassElement): boolean {
  const flags = ts.getCombinedModifierFlags(member as ts.Declaration);
  if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return false;
  if (member.name !== undefined && ts.isPrivateIdentifier(member.name)) return false;
  return !ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'internal');
}

function memberName(member: ts.ClassElement | ts.TypeElement): string {
  return member.name?.getText() ?? '(anonymous)';
}

function isOptionalProperty(declaration: ts.Declaration): boolean {
  return (
    (ts.isPropertySignature(declaration) || ts.isPropertyDeclaration(declaration)) &&
    declaration.questionToken !== undefined
  );
}

function hasTag(node: ts.Node, name: string): boolean {
  return hasTagIn(ts.getJSDocTags(node), name);
}

function hasTagIn(tags: readonly ts.JSDocTag[], name: string): boolean {
  return tags.some((tag) => tag.tagName.text === name);
}

/** Whether `node` is declared under `dir` (TypeScript writes file names with `/`). */
function isInside(node: ts.Node, dir: string): boolean {
  return node.getSourceFile().fileName.startsWith(`${dir.split(sep).join('/')}/`);
}

/** The repository's own code; workspace packages, linked through node_modules, resolve to it too. */
function isOwnSource(program: ts.Program, file: ts.SourceFile): boolean {
  return !program.isSourceFileDefaultLibrary(file) && !file.fileName.includes('/node_modules/');
}
