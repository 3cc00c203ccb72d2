/** A mistake in how mcpgen was called (bad flag, no spec given): exit 2, no stack trace. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The environment refused something mcpgen needed (unwritable output dir): exit 1, no stack trace. */
export class EnvironmentError extends Error {
  override readonly name = 'EnvironmentError';
}
