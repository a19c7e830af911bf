#!/usr/bin/env node
/**
 * The `ctxkit` command: `ctxkit inspect <database>` and `ctxkit view <database>` (see `USAGE`).
 */
import { runCli } from './run-cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
