import { defineConfig } from 'vitest/config';
import { shared } from './vitest.config.js';

export default defineConfig({ test: { ...shared, include: ['test/interop/**/*.test.ts'] } });
