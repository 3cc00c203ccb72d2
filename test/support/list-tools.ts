// Every tool a server lists, following nextCursor through all pages (large servers page their tools/list).
import type { Client } from '@modelcontextprotocol/client';

export async function listAllTools(client: Client): Promise<Awaited<ReturnType<Client['listTools']>>['tools']> {
  const tools = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}
