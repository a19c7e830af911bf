/**
 * `pnpm tsdoc-tags [package...]`: lists, as `package: symbol: what is missing`, the exports of
 * the published packages (or of the named ones) whose TSDoc lacks a `@param`, `@returns`,
 * `@default` or `@throws` (rules in api-docs/check-tsdoc-tags.ts). Packages still pending are
 * listed too, marked so; only the others make it exit non-zero.
 */
import {
  checkTsdocTags,
  formatTagFindings,
  PACKAGES_PENDING_TSDOC_TAGS,
} from './api-docs/check-tsdoc-tags.js';
import { publishedPackages } from './api-docs/published-packages.js';

const wanted = process.argv.slice(2);
const packages = publishedPackages().filter(
  (pkg) => wanted.length === 0 || wanted.some((name) => pkg.name.endsWith(name)),
);
const findings = checkTsdocTags(packages);
let failing = 0;
for (const pkg of packages) {
  const own = findings.filter((finding) => finding.package === pkg.name);
  const pending = PACKAGES_PENDING_TSDOC_TAGS.includes(pkg.name);
  if (!pending) failing += own.length;
  console.log(`${pkg.name}${pending ? ' (pending)' : ''}: ${own.length} symbol(s) missing tags`);
  if (own.length > 0) console.log(formatTagFindings(own));
}
process.exitCode = failing > 0 ? 1 : 0;
