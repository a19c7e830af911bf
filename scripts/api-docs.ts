/**
 * `pnpm api-docs`: regenerates the Markdown API reference in docs/api/ from the TSDoc of every
 * published package's entry points. Fails, writing nothing, when TypeDoc finds an export without
 * documentation or another problem; a test fails when the committed docs/api/ is stale.
 */
import { API_DOCS_DIR, ApiDocsError, generateApiDocs } from './api-docs/generate-api-docs.js';

const started = Date.now();
try {
  await generateApiDocs(API_DOCS_DIR);
  console.log(
    `api-docs: wrote ${API_DOCS_DIR}/ in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
} catch (error) {
  if (!(error instanceof ApiDocsError)) throw error;
  console.error(`api-docs: ${error.message}`);
  process.exitCode = 1;
}
