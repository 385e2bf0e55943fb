// Vitest as a Nest 12 project sets it up: its globals, and SWC to compile the TypeScript with the
// decorator metadata Nest's injection reads (Vitest's own transform drops it).
import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { globals: true, root: './', include: ['src/**/*.spec.ts'] },
  plugins: [swc.vite({ module: { type: 'es6' } })],
});
