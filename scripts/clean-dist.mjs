// Runs before `npm pack` / `npm publish` (prepare then builds): the package is compiled from the
// sources as they are, with no output left behind by a module since removed or renamed.
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
