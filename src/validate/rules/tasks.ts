import { didYouMean } from '../../common/suggest.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { DEFAULT_TASK_TTL_MS } from '../../common/task-defaults.js';
import { report } from '../report.js';
import type { SpecView } from '../view.js';

/** `task:` on tools (io.modelcontextprotocol/tasks): settings that cannot work together. */
export function checkTasks(view: SpecView): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const tool of view.tools) {
    const raw = tool.value.task;
    if (raw === undefined || typeof raw === 'string') continue;
    const label = `tool ${JSON.stringify(tool.value.name)}`;
    const support = raw.support ?? 'optional';
    if (support === 'never') {
      const given = (['ttlMs', 'pollIntervalMs', 'beforeTask', 'retry'] as const).filter((k) => raw[k] !== undefined);
      if (given.length > 0) out.push(report(tool, 'MCPG082', `${label} never runs as a task, so task.${given[0]} has no effect; remove it or set task.support to optional or required`, ['task', given[0]!], 'key'));
      continue;
    }
    const ttlMs = raw.ttlMs ?? DEFAULT_TASK_TTL_MS;
    if (raw.pollIntervalMs !== undefined && raw.pollIntervalMs > ttlMs) {
      out.push(report(tool, 'MCPG081', `${label}: task.pollIntervalMs (${raw.pollIntervalMs}) is longer than task.ttlMs (${ttlMs}): the task would expire before the first poll`, ['task', 'pollIntervalMs']));
    }
    const keys = Object.keys(tool.value.elicit ?? {});
    (raw.beforeTask ?? []).forEach((key, i) => {
      if (keys.includes(key)) return;
      const hint = didYouMean(key, keys);
      out.push(report(tool, 'MCPG080', `${label}: task.beforeTask names "${key}", which is not one of its elicit keys${hint !== undefined ? `; did you mean "${hint}"?` : keys.length > 0 ? ` (${keys.join(', ')})` : ' (it declares no elicit)'}`, ['task', 'beforeTask', i]));
    });
    const hints = tool.value.annotations;
    if (raw.retry !== undefined && raw.retry.max > 0 && hints?.destructiveHint === true && hints.idempotentHint !== true) {
      out.push(report(tool, 'MCPG180', `${label}: task.retry re-runs it when its worker is lost, but its annotations say it is destructive and not idempotent: the first run may already have had its effect. Make the handler idempotent and set idempotentHint: true, or remove task.retry`, ['task', 'retry'], 'key'));
    }
    if (tool.value.timeoutMs !== undefined && tool.value.timeoutMs > ttlMs) {
      out.push(report(tool, 'MCPG083', `${label}: timeoutMs (${tool.value.timeoutMs}) is longer than task.ttlMs (${ttlMs}): the task record expires while the handler may still run`, ['timeoutMs']));
    }
  }
  return out;
}
