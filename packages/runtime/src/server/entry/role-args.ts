// `--worker` / `--front` (or MCPGEN_TASK_ROLE): what this instance does with tasks (docs/tasks.md, Workers).
export type TaskRoleArg = 'front' | 'worker';

/** The role from the flags (they win) or the environment; an error for both flags or a front without --http. */
export function taskRoleArg(flags: readonly string[], env: Readonly<Record<string, string | undefined>>, transport: 'http' | 'stdio' | undefined): { readonly taskRole?: TaskRoleArg } | { readonly error: string } {
  if (flags.includes('--worker') && flags.includes('--front')) return { error: '--worker and --front exclude each other' };
  const fromEnv = env.MCPGEN_TASK_ROLE ?? '';
  if (flags.length === 0 && !['', 'all', 'front', 'worker'].includes(fromEnv)) return { error: `MCPGEN_TASK_ROLE must be all, front or worker, got ${JSON.stringify(fromEnv)}` };
  const role = flags.length > 0 ? (flags[0] === '--worker' ? 'worker' : 'front') : fromEnv === 'front' || fromEnv === 'worker' ? fromEnv : undefined;
  if (role === 'front' && transport !== 'http') return { error: '--front (MCPGEN_TASK_ROLE=front) applies to --http only' };
  return role === undefined ? {} : { taskRole: role };
}
