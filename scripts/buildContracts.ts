// `npm run build:contracts`: compile resources/contracts/*.sol into resources/contracts/build/ (skipped when the
// sources are unchanged; pass --force to recompile anyway).
import { compileContracts, contractsBuildDir } from '../engine/chain/compileContracts.js';

const force = process.argv.includes('--force');
try {
  const r = compileContracts({ force });
  const what = r.compiled ? `compiled ${r.contracts.join(', ')}` : 'up to date';
  console.log(`contracts ${what} (${Math.round(r.ms)} ms) → ${contractsBuildDir()}`);
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
