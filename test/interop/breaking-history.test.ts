// One pair of the real version histories (`npm run histories`, docs/breaking-changes.md) run here for real:
// two neighbouring published versions of server-memory (pinned under aliases in test/import-servers),
// each imported over stdio with `import mcp`, then `mcpgen breaking` between them. Its findings must be
// those committed in test/fixtures/histories/findings.json, which verdicts.json classifies.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importMcp } from '../../src/import/mcp/index.js';
import { run } from '../cli/breaking-repo.js';
import { ROOT, tempDir } from '../support/root.js';
import { assertInstalled, SERVERS } from '../support/import-servers.js';

const FROM = '2026.1.26';
const TO = '2026.7.4';

describe('breaking between two published server-memory versions', () => {
  assertInstalled();
  it(`${FROM} → ${TO}: the committed findings`, async () => {
    const dir = tempDir('mcpgen-history-');
    for (const version of [FROM, TO]) {
      const bin = join(SERVERS, `server-memory-${version}`, 'dist/index.js');
      const env = { ...process.env, MEMORY_FILE_PATH: join(dir, `${version}.jsonl`) } as Record<string, string>;
      const imported = await importMcp({ target: { kind: 'stdio', command: process.execPath, args: [bin], env }, era: '2025' });
      writeFileSync(join(dir, `${version}.yaml`), imported.yaml);
    }
    const r = run(dir, ['breaking', '--base', `${FROM}.yaml`, `${TO}.yaml`, '--format', 'json']);
    expect(r.code).toBe(0);
    type Out = { rule: string; category: string; severity: string; failing: boolean; message: string; new?: { path: string }; old?: { path: string } };
    const found = (JSON.parse(r.stdout) as { findings: Out[] }).findings.map((f) => ({ rule: f.rule, category: f.category, severity: f.severity, failing: f.failing, message: f.message, path: (f.new ?? f.old)?.path ?? '' }));
    const committed = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/histories/findings.json'), 'utf8')).pairs.find((p: { server: string; from: string; to: string }) => p.server === 'server-memory' && p.from === FROM && p.to === TO);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(committed.findings);
  }, 60_000);
});
