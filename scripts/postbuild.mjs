// After tsc: make the CLI entry executable (npm links it as the `unattended` bin).
import { chmodSync } from 'node:fs';

chmodSync(new URL('../dist/cli/main.js', import.meta.url), 0o755);
