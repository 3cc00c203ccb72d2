// Skills (io.modelcontextprotocol/skills, SEP-2640) on a generated server. The SDK's SkillsExtension does
// the protocol: skills/list, skills/get, resources/directory/read, digests, canonical URIs. It attaches to
// an McpServer, while mcpgen builds the low-level Server itself (its own resources/list and resources/read
// for the spec's resources); so each server is built as an McpServer's `server`, the extension attaches
// there, and the skill resource template it registers is kept so mcpgen's resources handlers can answer
// for skill:// URIs too.
import { McpServer, ResourceTemplate, type ListResourcesCallback, type ReadResourceCallback, type ReadResourceResult, type ReadResourceTemplateCallback, type RegisteredResource, type RegisteredResourceTemplate, type Resource, type ResourceMetadata, type Server, type ServerContext, type ServerOptions as SdkServerOptions } from '@modelcontextprotocol/server';
import type { SkillsExtension } from '@modelcontextprotocol/server/ext/skills';

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
