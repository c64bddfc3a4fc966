import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

/** `npm run screens`: the same server and browser as the e2e specs, writing docs/screens/*.png. */
export default defineConfig({ ...base, testDir: './screens', reporter: [['list']] });
