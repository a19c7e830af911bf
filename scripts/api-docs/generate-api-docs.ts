import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Application, Comment, Converter, Logger, LogLevel, ReflectionKind } from 'typedoc';
import type { PluginOptions } from 'typedoc-plugin-markdown';
import { type PublishedPackage, publishedPackages, REPO_ROOT } from './published-packages.js';

/** The folder the committed reference lives in, relative to the repository root. */
export const API_DOCS_DIR = 'docs/api';

/** How the Markdown looks: one page per entry point, tables for members, no source links. */
const MARKDOWN_OPTIONS: Partial<PluginOptions> = {
  outputFileStrategy: 'modules',
  excludeScopesInPaths: true,
  hidePageHeader: true,
  parametersFormat: 'table',
  interfacePropertiesFormat: 'table',
  classPropertiesFormat: 'table',
  typeDeclarationFormat: 'table',
};

/** Thrown when TypeDoc reports a warning or an error while generating the reference. */
export class ApiDocsError extends Error {
  /** Every warning and error TypeDoc reported, one a line. */
  readonly problems: readonly string[];

  /** @param problems - every warning and error TypeDoc reported */
  constructor(problems: readonly string[]) {
    super(`TypeDoc reported ${problems.length} problem(s):\n${problems.join('\n')}`);
    this.name = 'ApiDocsError';
    this.problems = problems;
  }
}

/** Keeps TypeDoc's warnings and errors instead of printing them. */
class CollectingLogger extends Logger {
  readonly problems: string[] = [];

  override log(message: string, level: LogLevel): void {
    if (level >= LogLevel.Warn) this.problems.push(message);
  }
}

/**
 * Generates the Markdown API reference of every published package's entry points into `outDir`
 * (emptied first), with TypeDoc's validation on: an export without documentation, a broken
 * `{@link}` or a type used by the API but not exported fails the run.
 *
 * @param outDir - where the Markdown goes; absolute, or relative to the repository root
 * @param packages - the packages to document
 * @throws ApiDocsError when TypeDoc reports any warning or error (before writing, unless the
 *   problem came while writing)
 */
export async function generateApiDocs(
  outDir: string,
  packages: readonly PublishedPackage[] = publishedPackages(),
): Promise<void> {
  const entryPoints = packages.flatMap((pkg) => pkg.entryPoints);
  const moduleNames = new Map(entryPoints.map((entry) => [entry.source, entry.specifier]));
  const descriptions = new Map(
    packages.flatMap((pkg) =>
      pkg.entryPoints.map((entry) => [
        entry.specifier,
        entry.subpath === '.'
          ? pkg.description
          : `The \`${entry.subpath.slice(2)}\` entry point of ${pkg.name}.`,
      ]),
    ),
  );
  const baseConfig = JSON.parse(readFileSync(join(REPO_ROOT, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: Record<string, unknown>;
  };

  const app = await Application.bootstrapWithPlugins(
    {
      name: 'ctxkit API reference',
      basePath: REPO_ROOT,
      entryPoints: entryPoints.map((entry) => entry.source),
      entryPointStrategy: 'resolve',
      // Only the entry points and what they import: no tests, no other package's internals.
      compilerOptions: { ...baseConfig.compilerOptions, noEmit: true },
      // Types are checked by `pnpm typecheck`; a type error elsewhere must not stop the reference.
      skipErrorChecking: true,
      plugin: ['typedoc-plugin-markdown'],
      out: resolve(REPO_ROOT, outDir),
      cleanOutputDir: true,
      readme: 'none',
      // Line numbers would make every edit of a source file stale the reference.
      disableSources: true,
      excludePrivate: true,
      excludeInternal: true,
      sort: ['kind', 'alphabetical'],
      ...MARKDOWN_OPTIONS,
      // rewrittenLink off: a resolved link to a member of an object type alias has no anchor in
      // Markdown, so the plugin prints its text unlinked; that is not a documentation defect.
      validation: {
        notExported: true,
        invalidLink: true,
        notDocumented: true,
        rewrittenLink: false,
      },
      requiredToBeDocumented: [
        'Enum',
        'EnumMember',
        'Variable',
        'Function',
        'Class',
        'Interface',
        'Property',
        'Method',
        'Accessor',
        'TypeAlias',
      ],
      treatWarningsAsErrors: true,
      logLevel: 'Warn',
    },
    [],
  );
  const logger = new CollectingLogger();
  app.logger = logger;

  // Name each module by its import specifier and describe it with its package's description.
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (!reflection.kindOf(ReflectionKind.Module)) return;
    const file = context.getSymbolFromReflection(reflection)?.declarations?.[0]?.getSourceFile();
    const specifier = file === undefined ? undefined : moduleNames.get(file.fileName);
    if (specifier === undefined) return;
    reflection.name = specifier;
    reflection.comment ??= new Comment([{ kind: 'text', text: descriptions.get(specifier) ?? '' }]);
  });

  const project = await app.convert();
  if (project === undefined) throw new ApiDocsError(logger.problems);
  app.validate(project);
  if (logger.problems.length > 0) throw new ApiDocsError(logger.problems);
  await app.generateOutputs(project);
  if (logger.problems.length > 0) throw new ApiDocsError(logger.problems);
}
