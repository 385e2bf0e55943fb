import {
  checkIcons,
  checkTimeout,
  deepFreeze,
  optional,
  optionalMeta,
  optionalText,
} from '../items/definition-checks.js';
import { checkAnnotations } from '../content/content.checks.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from '../interfaces/mcp-resource-options.interface.js';
import type { ContentAnnotations, ResourceDefinition, ResourceTemplateDefinition } from '../protocol/mcp.types.js';
import { isAbsoluteUri, MAX_URI_LENGTH } from '../protocol/uri.js';
import { UriTemplate } from './uri-template.js';

/** Longest resource name accepted (file paths make long names). */
const MAX_NAME_LENGTH = 1024;

/**
 * The advertised definition of a resource with a fixed URI, computed once.
 * @throws McpDefinitionError for a URI that is not absolute, a missing name, or a bad size, MIME type, icon or timeout.
 */
export function buildResourceDefinition(
  options: McpResourceOptions,
  defaultName: string,
  label: string,
): ResourceDefinition {
  if (!isAbsoluteUri(options.uri)) {
    throw new McpDefinitionError(
      `${label}: uri ${JSON.stringify(options.uri)} is not an absolute URI (scheme:..., at most ${MAX_URI_LENGTH} characters)`,
    );
  }
  if (options.size !== undefined && !(Number.isInteger(options.size) && options.size >= 0)) {
    throw new McpDefinitionError(`${label}: size must be a whole number of bytes`);
  }
  return deepFreeze(
    structuredClone({
      uri: options.uri,
      ...common(options, defaultName, label),
      ...optional('size', options.size),
    }),
  ) as ResourceDefinition;
}

/**
 * The advertised definition of a resource template and its compiled template, computed once.
 * @throws McpDefinitionError for an invalid URI template (the parser's reason included), or a bad name, MIME type, icon or timeout.
 */
export function buildTemplateDefinition(
  options: McpResourceTemplateOptions,
  defaultName: string,
  label: string,
): { definition: ResourceTemplateDefinition; template: UriTemplate } {
  const template = compileTemplate(options.uriTemplate, label);
  const definition = deepFreeze(
    structuredClone({ uriTemplate: options.uriTemplate, ...common(options, defaultName, label) }),
  ) as ResourceTemplateDefinition;
  return { definition, template };
}

function compileTemplate(uriTemplate: unknown, label: string): UriTemplate {
  if (typeof uriTemplate !== 'string' || uriTemplate.length === 0 || uriTemplate.length > MAX_URI_LENGTH) {
    throw new McpDefinitionError(`${label}: uriTemplate must be an RFC 6570 URI template`);
  }
  let template: UriTemplate;
  try {
    template = new UriTemplate(uriTemplate);
  } catch (error) {
    throw new McpDefinitionError(
      `${label}: uriTemplate ${JSON.stringify(uriTemplate)} is not a valid RFC 6570 URI template: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  // The literal part before the first expression must make the expansions absolute URIs.
  const literalStart = uriTemplate.split('{')[0]!;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(literalStart)) {
    throw new McpDefinitionError(`${label}: uriTemplate must start with a scheme ("weather://{city}")`);
  }
  return template;
}

/** The fields resources and templates share, checked. */
function common(
  options: McpResourceOptions | McpResourceTemplateOptions,
  defaultName: string,
  label: string,
): Record<string, unknown> {
  const name = options.name ?? defaultName;
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME_LENGTH) {
    throw new McpDefinitionError(`${label}: name must be 1 to ${MAX_NAME_LENGTH} characters`);
  }
  if (
    options.mimeType !== undefined &&
    options.mimeType !== null &&
    !/^[\w.+-]+\/[\w.+-]+(?:\s*;.*)?$/.test(options.mimeType)
  ) {
    throw new McpDefinitionError(`${label}: mimeType ${JSON.stringify(options.mimeType)} is not a MIME type`);
  }
  checkTimeout(options.timeoutMs, label);
  return {
    name,
    ...optionalText('title', options.title, label),
    ...optionalText('description', options.description, label),
    ...optional('mimeType', options.mimeType ?? undefined),
    ...optional('annotations', checkedAnnotations(options.annotations, label)),
    ...optional('icons', checkIcons(options.icons, label)),
    ...optionalMeta(options._meta, label),
  };
}

function checkedAnnotations(
  annotations: ContentAnnotations | undefined,
  label: string,
): ContentAnnotations | undefined {
  if (annotations === undefined) return undefined;
  try {
    return checkAnnotations(annotations);
  } catch (error) {
    throw new McpDefinitionError(`${label}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
