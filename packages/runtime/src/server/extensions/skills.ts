// Skills (io.modelcontextprotocol/skills, SEP-2640) on a generated server. The SDK's SkillsExtension does
// the protocol: skills/list, skills/get, resources/directory/read, digests, canonical URIs. It attaches to
// an McpServer, while mcpgen builds the low-level Server itself (its own resources/list and resources/read
// for the spec's resources); so each server is built as an McpServer's `server`, the extension attaches
// there, and the skill resource template it registers is kept so mcpgen's resources handlers can answer
// for skill:// URIs too.
import { McpServer, ResourceTemplate, type ListResourcesCallback, type ReadResourceCallback, type ReadResourceResult, type ReadResourceTemplateCallback, type RegisteredResource, type RegisteredResourceTemplate, type Resource, type ResourceMetadata, type Server, type ServerContext, type ServerOptions as SdkServerOptions } from '@modelcontextprotocol/server';
// The SDK's skills extension (its own chunk of the SDK) loads only for a server that has skills.
import type { SkillCatalog, SkillsExtension } from '@modelcontextprotocol/server/ext/skills';

/** A skill file embedded by `mcpgen generate`: text (UTF-8) as is, anything else as base64. */
export type EmbeddedSkillFile = string | { readonly base64: string };

/**
 * The catalog of a generated `skills.ts`: files keyed by their path under the spec's `skills:` folder
 * (`pdf-processing/SKILL.md`). Strict: a problem `mcpgen check` let through fails start-up instead of
 * silently dropping a skill.
 */
export async function embeddedSkills(files: Readonly<Record<string, EmbeddedSkillFile>>): Promise<SkillCatalog> {
  const { SkillsExtension, memorySkillFiles } = await import('@modelcontextprotocol/server/ext/skills');
  const record: Record<string, string | Uint8Array> = {};
  for (const [path, file] of Object.entries(files)) record[path] = typeof file === 'string' ? file : new Uint8Array(Buffer.from(file.base64, 'base64'));
  return SkillsExtension.load(memorySkillFiles(record), { strict: true });
}

type Metadata = ResourceMetadata & Record<string, unknown>;

/** An McpServer that remembers the resource template an extension registers on it. */
class SkillsHost extends McpServer {
  template: ResourceTemplate | undefined;
  read: ReadResourceTemplateCallback | undefined;
  override registerResource(name: string, uriOrTemplate: string, config: Metadata, readCallback: ReadResourceCallback): RegisteredResource;
  override registerResource(name: string, uriOrTemplate: ResourceTemplate, config: Metadata, readCallback: ReadResourceTemplateCallback): RegisteredResourceTemplate;
  override registerResource(name: string, uriOrTemplate: string | ResourceTemplate, config: Metadata, readCallback: ReadResourceCallback | ReadResourceTemplateCallback): RegisteredResource | RegisteredResourceTemplate {
    if (typeof uriOrTemplate === 'string') return super.registerResource(name, uriOrTemplate, config, readCallback as ReadResourceCallback);
    this.template = uriOrTemplate;
    this.read = readCallback as ReadResourceTemplateCallback;
    return super.registerResource(name, uriOrTemplate, config, readCallback as ReadResourceTemplateCallback);
  }
}

/** What mcpgen's resources handlers need from the skills on one server. */
export interface SkillResources {
  /** The skill resources resources/list shows (each skill's SKILL.md, with its name and description). */
  list(ctx: ServerContext): Promise<Resource[]>;
  /** The skill file at `uri`, or `undefined` when `uri` is not a skill URI (then the spec's resources answer). */
  read(uri: string, ctx: ServerContext): Promise<ReadResourceResult> | undefined;
}

/**
 * A low-level Server with `skills` attached (skills/list, skills/get, resources/directory/read and the
 * extension capability), and the skill resources for the caller's own resources handlers, which it
 * installs afterwards and which replace the McpServer's.
 */
export function serverWithSkills(info: ConstructorParameters<typeof McpServer>[0], options: SdkServerOptions, skills: SkillsExtension): { server: Server; resources: SkillResources } {
  // No capabilities for the McpServer itself: it would install (and announce) its own tools and prompts
  // handlers. The server's own capabilities join after the extension's.
  const host = new SkillsHost(info, { ...options, capabilities: {} });
  skills.attach(host);
  if (options.capabilities !== undefined) host.server.registerCapabilities(options.capabilities);
  const { template, read } = host;
  if (template === undefined || read === undefined) throw new Error('the skills extension registered no resource template');
  const list: ListResourcesCallback | undefined = template.listCallback;
  return {
    server: host.server,
    resources: {
      list: async (ctx) => (list === undefined ? [] : (await list(ctx)).resources),
      read(uri, ctx) {
        const variables = template.uriTemplate.match(uri);
        if (variables === null) return undefined;
        return Promise.resolve(read(new URL(uri), variables, ctx)) as Promise<ReadResourceResult>;
      },
    },
  };
}
