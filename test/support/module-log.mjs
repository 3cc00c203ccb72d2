// `node --import <this file>`: every ES module the process loads is appended, one URL a line, to the
// file MODULE_LOG names (a loader hook, so it sees what the process really loads and nothing else).
import { register } from 'node:module';

register('./module-log-hooks.mjs', import.meta.url);
