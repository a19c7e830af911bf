/**
 * The packages as a user gets them: every package under packages/ is packed with `pnpm pack`,
 * linted as a tarball (publint, attw), installed with plain npm into a fresh folder outside the
 * workspace, then imported from Node, type-checked under `bundler` and `nodenext` resolution,
 * bundled by Vite in development and production mode, and run in headless Chromium. Slow
 * (packing builds every package, npm installs the third-party dependencies): about three minutes.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../api-docs/published-packages.js';
import { readmeInstall } from './readme-install.js';
import { type PackedPackage, packWorkspace } from './workspace-tarballs.js';

const require = createRequire(import.meta.url);
const FIXTURES = join(import.meta.dirname, 'fixtures');
const scratch = mkdtempSync(join(tmpdir(), 'ctxkit-consumer-'));
const consumer = join(scratch, 'consumer');
const unpacked = join(scratch, 'unpacked');
let packages: PackedPackage[] = [];

/** Third-party packages the consumer installs beside the tarballs, at the workspace's versions. */
const CONSUMER_EXTRAS = [
  '@types/node@^20.19.0',
  'typescript@~5.9.3',
  'vitest@~4.1.12',
  'fast-check@^4.10.2',
];

beforeAll(() => {
  packages = packWorkspace(join(scratch, 'tarballs'));
  for (const pkg of packages) {
    const into = join(unpacked, pkg.name);
    mkdirSync(into, { recursive: true });
    execFileSync('tar', ['-xzf', pkg.tarball, '-C', into]);
  }
  mkdirSync(consumer, { recursive: true });
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'ctxkit-consumer', private: true, type: 'module' }, null, 2),
  );
  // Plain npm, as a user installs: the tarballs, their dependencies and peers from the registry
  // (or npm's cache). --ignore-scripts: better-sqlite3 (provider-sqlite's peer) would compile
  // for two minutes; nothing here opens a database, and the workspace's own tests use it built.
  execFileSync(
    'npm',
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--loglevel=error',
      ...packages.map((pkg) => pkg.tarball),
      ...CONSUMER_EXTRAS,
    ],
    { cwd: consumer, stdio: 'pipe' },
  );
  cpSync(join(FIXTURES, 'condition-probe'), join(consumer, 'node_modules', 'condition-probe'), {
    recursive: true,
  });
}, 600_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }), 120_000);

/** Every file under `dir`, relative to it, with `/` separators. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

/** Runs a command, and on failure throws its output (the test's message). */
function run(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(
      `${command} ${args.join(' ')} failed in ${cwd}:\n${failed.stdout}${failed.stderr}`,
    );
  }
}

describe('the tarballs', () => {
  it('packs every package under packages/', () => {
    const folders = readdirSync(join(REPO_ROOT, 'packages')).filter((folder) =>
      existsSync(join(REPO_ROOT, 'packages', folder, 'package.json')),
    );
    expect(packages.map((pkg) => relative(join(REPO_ROOT, 'packages'), pkg.dir)).sort()).toEqual(
      folders.sort(),
    );
  });

  it('hold dist/, README.md, LICENSE and package.json only, no tests, no reference to src/', () => {
    for (const pkg of packages) {
      const root = join(unpacked, pkg.name, 'package');
      const files = filesUnder(root);
      expect(files, pkg.name).toContain('dist/index.js');
      expect(files, pkg.name).toContain('LICENSE');
      const stray = files.filter(
        (file) =>
          !file.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(file),
      );
      expect(stray, `${pkg.name}: files outside dist/`).toEqual([]);
      expect(
        files.filter((file) =>
          /(^|\/)(test|tests|__tests__|__fixtures__)\/|\.(test|spec)\./.test(file),
        ),
        `${pkg.name}: test files`,
      ).toEqual([]);
      const manifest = readFileSync(join(root, 'package.json'), 'utf8');
      expect(manifest, `${pkg.name}: package.json`).not.toMatch(/src\/|@ctxkit\/source|workspace:/);
      const referencing = files.filter((file) =>
        /(^|["'(\s])\.{1,2}\/src\//.test(readFileSync(join(root, file), 'utf8')),
      );
      expect(referencing, `${pkg.name}: files that reference src/`).toEqual([]);
    }
  });

  it('have source and declaration maps that name shipped files only', () => {
    let maps = 0;
    for (const pkg of packages) {
      const root = join(unpacked, pkg.name, 'package');
      for (const file of filesUnder(root).filter((name) => name.endsWith('.map'))) {
        const map = JSON.parse(readFileSync(join(root, file), 'utf8')) as { sources: string[] };
        for (const source of map.sources) {
          expect(
            existsSync(join(root, dirname(file), source)),
            `${pkg.name}/${file}: ${source}`,
          ).toBe(true);
        }
        maps++;
      }
    }
    expect(maps).toBeGreaterThan(packages.length * 2);
  });

  it('pass publint, suggestions included', async () => {
    for (const pkg of packages) {
      const tarball = readFileSync(pkg.tarball);
      const { messages, pkg: manifest } = await publint({
        pack: {
          tarball: tarball.buffer.slice(
            tarball.byteOffset,
            tarball.byteOffset + tarball.byteLength,
          ),
        },
        level: 'suggestion',
        strict: true,
      });
      expect(
        messages.map((message) => formatMessage(message, manifest) ?? message.code),
        pkg.name,
      ).toEqual([]);
    }
  });

  it('pass Are the Types Wrong (profile esm-only: the packages are ESM, require() is not offered)', () => {
    const attw = join(
      dirname(require.resolve('@arethetypeswrong/cli/package.json')),
      'dist',
      'index.js',
    );
    for (const pkg of packages) {
      run(
        process.execPath,
        [attw, pkg.tarball, '--profile', 'esm-only', '--format', 'table-flipped'],
        scratch,
      );
    }
  });
});

/** Every entry point of every package, as the import specifiers users write. */
function allSpecifiers(): string[] {
  return packages.flatMap((pkg) => pkg.entryPoints.map((entry) => entry.specifier));
}

describe('a consumer that installed the tarballs with npm', () => {
  it('imports every entry point from plain Node ESM (the Node 22 packages on their Node 22)', () => {
    for (const pkg of packages) {
      for (const { specifier } of pkg.entryPoints) {
        const script = `const m = await import(${JSON.stringify(specifier)});
if (Object.keys(m).length === 0) throw new Error('no exports');
console.log(import.meta.resolve(${JSON.stringify(specifier)}));`;
        const resolved = run(
          pkg.nodeBinary,
          ['--input-type=module', '-e', script],
          consumer,
        ).trim();
        expect(resolved, specifier).toMatch(new RegExp(`/node_modules/${pkg.name}/dist/.+\\.js$`));
      }
    }
  });

  it('runs every bin from the installed tarball: its help, and the one-line answer of ctxkit to bad input', () => {
    let bins = 0;
    for (const pkg of packages) {
      const manifest = JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')) as {
        bin?: Record<string, string>;
      };
      for (const name of Object.keys(manifest.bin ?? {})) {
        const bin = join(consumer, 'node_modules', '.bin', name);
        expect(run(bin, ['--help'], consumer), `${pkg.name}: ${name} --help`).toMatch(/^Usage:/);
        if (name === 'ctxkit') {
          const missing = spawnSync(bin, ['inspect', 'no-such-file.sqlite'], {
            cwd: consumer,
            encoding: 'utf8',
          });
          expect(missing.stderr.trimEnd().split('\n'), 'ctxkit: bad input').toHaveLength(1);
          expect(missing.status, 'ctxkit: bad input').toBe(2);
        }
        bins++;
      }
    }
    expect(bins).toBeGreaterThan(0);
  });

  it('runs the README example, as printed, for the packages of its install line', () => {
    const { packages: installLine, example } = readmeInstall();
    expect(installLine.length).toBeGreaterThan(0);
    for (const name of installLine) expect(packages.map((pkg) => pkg.name)).toContain(name);
    writeFileSync(join(consumer, 'readme-example.mjs'), example);
    const output = run(process.execPath, ['readme-example.mjs'], consumer);
    expect(output).toMatch(/^fit: 1 -> 1 messages/);
    expect(output).toMatch(/truncated/);
  });

  for (const resolution of ['bundler', 'nodenext'] as const) {
    it(`type-checks every entry point and the README example with moduleResolution ${resolution}`, async () => {
      const all = allSpecifiers();
      expect(await typeCheckConsumer(resolution, 'all', all, true)).toEqual([]);
    });

    it(`type-checks the declarations themselves (skipLibCheck off) with moduleResolution ${resolution}, packages without framework peers`, async () => {
      const frameworkFree = packages
        .filter((pkg) => requiredPeers(pkg.dir).length === 0)
        .flatMap((pkg) => pkg.entryPoints.map((entry) => entry.specifier));
      expect(frameworkFree.length).toBeGreaterThan(0);
      expect(await typeCheckConsumer(resolution, 'declarations', frameworkFree, false)).toEqual([]);
    });
  }
});

/**
 * The peer dependencies a package requires (not the optional ones): the frameworks of the
 * integrations, better-sqlite3.
 *
 * @param dir - the package folder
 * @returns the names
 */
function requiredPeers(dir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  };
  return Object.keys(manifest.peerDependencies ?? {}).filter(
    (name) => manifest.peerDependenciesMeta?.[name]?.optional !== true,
  );
}

/**
 * Type-checks a consumer that imports `specifiers` (and holds the README example). With
 * `skipLibCheck` on, it checks that every entry point resolves to declarations and the example
 * compiles; with it off, the declarations themselves too: only for packages without framework
 * peers, whose own declarations (some SDKs' need optional packages) cost a minute and gigabytes.
 *
 * @param resolution - the consumer's moduleResolution
 * @param name - a name for the consumer's folder
 * @param specifiers - the entry points to import
 * @param skipLibCheck - the compiler option
 * @returns tsc's error lines
 */
async function typeCheckConsumer(
  resolution: 'bundler' | 'nodenext',
  name: string,
  specifiers: string[],
  skipLibCheck: boolean,
): Promise<string[]> {
  const dir = join(consumer, `typecheck-${name}-${resolution}`);
  mkdirSync(dir, { recursive: true });
  const imports = specifiers.map(
    (specifier, i) => `import * as entry${i} from '${specifier}';\nexport { entry${i} };`,
  );
  writeFileSync(join(dir, 'entry-points.ts'), `${imports.join('\n')}\n`);
  writeFileSync(join(dir, 'readme-example.ts'), `${readmeInstall().example}\nexport {};\n`);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023', 'DOM'],
        module: resolution === 'bundler' ? 'preserve' : 'nodenext',
        moduleResolution: resolution,
        strict: true,
        noEmit: true,
        skipLibCheck,
        types: ['node'],
      },
      include: ['*.ts'],
    }),
  );
  const tsc = join(consumer, 'node_modules', 'typescript', 'bin', 'tsc');
  const { failed, output } = await new Promise<{ failed: boolean; output: string }>((done) =>
    execFile(
      process.execPath,
      [tsc, '-p', dir, '--pretty', 'false'],
      { cwd: dir },
      (error, stdout, stderr) => done({ failed: error !== null, output: `${stdout}${stderr}` }),
    ),
  );
  const errors = output.split('\n').filter((line) => /\): error TS\d+/.test(line));
  if (failed && errors.length === 0) throw new Error(`tsc failed in ${dir}:\n${output}`);
  return errors;
}

/**
 * Builds `entry` with Vite from the consumer folder and lists the modules of the build's graph.
 * `browser` bundles everything into one IIFE (`ctxkitCheck`); `server` is an SSR build, as a
 * server-rendered app makes, that bundles the @ctxkit packages and leaves the other dependencies
 * to Node.
 *
 * @param mode - Vite's mode: `development` sets the `development` export condition
 * @param target - which side of an app the bundle is for
 * @param entry - the entry module, absolute
 * @param outDir - where the bundle goes
 * @returns the module ids, and the bundle of a browser build
 */
async function viteBuild(
  mode: 'development' | 'production',
  target: 'browser' | 'server',
  entry: string,
  outDir: string,
) {
  const { build } = await import('vite');
  const moduleIds: string[] = [];
  // As `vite build --mode` in a shell: vitest's NODE_ENV=test would make every mode resolve the
  // `development` condition.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = mode;
  await build({
    root: consumer,
    mode,
    configFile: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'record-module-graph',
        buildEnd() {
          moduleIds.push(...this.getModuleIds());
        },
      },
    ],
    ssr: { noExternal: [/^@ctxkit\//, 'condition-probe'] },
    build:
      target === 'browser'
        ? {
            outDir,
            emptyOutDir: true,
            minify: mode === 'production',
            lib: { entry, formats: ['iife'], name: 'ctxkitCheck', fileName: () => 'bundle.js' },
          }
        : { outDir, emptyOutDir: true, ssr: entry },
  }).finally(() => {
    process.env.NODE_ENV = nodeEnv;
  });
  const bundle = target === 'browser' ? readFileSync(join(outDir, 'bundle.js'), 'utf8') : '';
  return { moduleIds, bundle };
}

describe('a Vite app of that consumer', () => {
  for (const mode of ['development', 'production'] as const) {
    it(`builds its server side with every package in ${mode} mode, from dist/ (the development condition never reaches src/)`, async () => {
      const entry = join(consumer, `vite-${mode}.js`);
      writeFileSync(
        entry,
        [
          "export { resolvedCondition } from 'condition-probe';",
          ...allSpecifiers().map((specifier, i) => `export * as entry${i} from '${specifier}';`),
        ].join('\n'),
      );
      const { moduleIds } = await viteBuild(mode, 'server', entry, join(consumer, `dist-${mode}`));
      const probe = moduleIds.find((id) => id.includes('condition-probe'));
      expect(probe, 'the probe shows which condition Vite set').toMatch(
        mode === 'development' ? /development\.js$/ : /default\.js$/,
      );
      const ours = moduleIds.filter((id) => id.includes('/node_modules/@ctxkit/'));
      for (const specifier of allSpecifiers()) {
        const dir = specifier.split('/').slice(0, 2).join('/');
        expect(
          ours.some((id) => id.includes(`/node_modules/${dir}/dist/`)),
          specifier,
        ).toBe(true);
      }
      expect(
        ours.filter((id) => !/\/node_modules\/@ctxkit\/[^/]+\/dist\/.+\.js$/.test(id)),
      ).toEqual([]);
    });
  }

  it('runs context-core, compressor-simple and assembler-standard in headless Chromium', async () => {
    const entry = join(consumer, 'browser-check.js');
    cpSync(join(FIXTURES, 'browser-check.js'), entry);
    const { bundle, moduleIds } = await viteBuild(
      'production',
      'browser',
      entry,
      join(consumer, 'dist-browser'),
    );
    expect(
      moduleIds.filter((id) => id.startsWith('node:') || id.includes('__vite-browser-external')),
    ).toEqual([]);
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ['--no-sandbox'],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.setContent('<!doctype html><title>ctxkit</title>');
      await page.addScriptTag({ content: bundle });
      const result = (await page.evaluate(() =>
        (globalThis as unknown as { ctxkitCheck: { run(): Promise<unknown> } }).ctxkitCheck.run(),
      )) as {
        userAgent: string;
        originalTokens: number;
        estimatedTokens: number;
        wire: { role: string }[];
      };
      expect(errors).toEqual([]);
      expect(result.userAgent).toMatch(/HeadlessChrome|Chrome/);
      expect(result.originalTokens).toBeGreaterThan(20_000);
      expect(result.estimatedTokens).toBeLessThanOrEqual(2_000);
      expect(result.wire.map((message) => message.role)).toEqual([
        'system',
        'user',
        'assistant',
        'tool',
        'user',
      ]);
    } finally {
      await browser.close();
    }
  });
});

/**
 * Debian's Chromium (`.ci/run` installs it with apt-get).
 *
 * @returns the executable
 * @throws Error when there is none
 */
function chromiumPath(): string {
  const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((path) => path !== undefined && existsSync(path));
  if (found === undefined) throw new Error('no Chromium: apt-get install chromium');
  return found;
}
