/**
 * `npm run providers:check`: checks the providers configured in this environment with free calls and prints what
 * a Realistic video costs with these settings. Exits 1 when a configured provider has a problem, 0 otherwise
 * (also when no provider is configured: Draft needs none).
 */
import { checkProviders, formatReport } from './check.ts';

const report = await checkProviders(process.env);
console.log(formatReport(report));
process.exitCode = report.ok ? 0 : 1;
