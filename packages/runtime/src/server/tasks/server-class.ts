// The SDK's Server validates every tools/call result against CallToolResult (and would give a
// CreateTaskResult an empty `content`). A task's answer therefore leaves the tool handler as a thrown
// TaskCreated and is returned here, after that validation; the 2026 encoder keeps resultType "task" on
// tools/call.
import { Server, type JSONRPCRequest, type Result, type ServerContext } from '@modelcontextprotocol/server';

export class TaskCreated {
  constructor(readonly result: Record<string, unknown>) {}
}

export class TaskAwareServer extends Server {
  protected override _wrapHandler(method: string, handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return wrapped;
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (e) {
        if (e instanceof TaskCreated) return e.result as Result;
        throw e;
      }
    };
  }
}
