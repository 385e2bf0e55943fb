import { Injectable } from '@nestjs/common';
import { validateCacheHint } from '../items/cache-hints.js';
import type { McpCacheHintOptions } from '../interfaces/mcp-module-options.interface.js';
import type { Observable } from 'rxjs';
import { ChangeBurst } from '../items/change-burst.js';
import { ItemStore } from '../items/item-store.js';
import { completerTable, isReplaceable, type ItemCompleter } from '../items/completer.js';
import { definitionLabel } from '../items/definition-checks.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from '../interfaces/mcp-resource-options.interface.js';
import type { JsonSchemaObject } from '../protocol/mcp.types.js';
import { argumentsCheckerFor, type ArgumentsChecker } from '../schemas/arguments-checker.js';
import { Schemas } from '../schemas/schemas.js';
import { isJsonSchemaObject } from '../schemas/schema-source.js';
import type { RegisteredResource, RegisteredResourceTemplate } from './registered-resource.interface.js';
import { buildResourceDefinition, buildTemplateDefinition } from './resource-definition.factory.js';
import { strictlyEncoded, type UriTemplate, type UriVariables } from './uri-template.js';

/** What `resources/read` of a URI resolves to. */
export type ResolvedResource =
  | { readonly kind: 'resource'; readonly resource: RegisteredResource }
  | { readonly kind: 'template'; readonly template: RegisteredResourceTemplate; readonly variables: UriVariables };

/**
 * The resources (by URI) and resource templates (by URI template) one application serves: filled
 * by discovery at bootstrap and by the resource registries at run time, read by the resource lists,
 * `resources/read`, subscriptions and completion. Both share one burst of changes: clients hear of
 * resources and templates in one `notifications/resources/list_changed`.
 *
 * A URI is served by the resource with exactly that URI, else by the first template (in
 * registration order) it matches, among those the caller's guards admit.
 */
@Injectable()
export class ResourceStore {
  private readonly burst = new ChangeBurst();
  readonly resources = new ItemStore<RegisteredResource>(
    (resource) => resource.definition.uri,
    (existing, added) =>
      new McpDefinitionError(
        `Resource URI ${added.definition.uri} is served twice: by ${existing.owner} and by ${added.owner}`,
      ),
    this.burst,
  );
  readonly templates = new ItemStore<RegisteredResourceTemplate>(
    (template) => template.definition.uriTemplate,
    (existing, added) =>
      new McpDefinitionError(
        `Resource template ${added.definition.uriTemplate} is served twice: by ${existing.owner} and by ${added.owner}`,
      ),
    this.burst,
  );

  constructor(private readonly schemas: Schemas) {}

  /** Emits once per burst of changes to the served resources or templates. */
  get changes(): Observable<void> {
    return this.burst.changes;
  }

  /**
   * Prepares a resource from its options and registers it.
   * @throws McpDefinitionError for an invalid definition or a URI already served.
   */
  define(
    options: McpResourceOptions,
    defaultName: string,
    owner: string,
    target: RegisteredResource['target'],
  ): RegisteredResource {
    const label = definitionLabel('@McpResource()', owner);
    const resource: RegisteredResource = {
      definition: buildResourceDefinition(options, defaultName, label),
      owner,
      timeoutMs: options.timeoutMs,
      cache: cacheOption(options.cache, label),
      target,
    };
    this.resources.add(resource);
    return resource;
  }

  /**
   * Prepares a resource template from its options and registers it.
   * @throws McpDefinitionError for an invalid definition, variables that do not match the
   *   template's, or a URI template already served.
   */
  defineTemplate(
    options: McpResourceTemplateOptions,
    defaultName: string,
    owner: string,
    target: RegisteredResourceTemplate['target'],
  ): RegisteredResourceTemplate {
    const label = definitionLabel('@McpResourceTemplate()', owner);
    const { definition, template } = buildTemplateDefinition(options, defaultName, label);
    const schema = this.variablesSchema(options.variables, template, label);
    const registered: RegisteredResourceTemplate = {
      definition,
      template,
      owner,
      timeoutMs: options.timeoutMs,
      cache: cacheOption(options.cache, label),
      target,
      checkVariables: this.variablesChecker(options.variables, owner, label),
      completers: completerTable(options.complete, template.variables, schema, label, owner),
    };
    this.templates.add(registered);
    return registered;
  }

  /**
   * What may serve `uri`, in order: the resource with that URI, then every template it matches, in
   * registration order. The reader takes the first the caller's guards admit.
   */
  *candidates(uri: string): Generator<ResolvedResource> {
    const resource = this.resources.get(uri);
    if (resource) yield { kind: 'resource', resource };
    // Once per URI, not once per template: with many templates it would dominate the resolution.
    const strictForm = strictlyEncoded(uri) ?? null;
    for (const template of this.templates.servedItems()) {
      const variables = template.template.match(uri, strictForm);
      if (variables) yield { kind: 'template', template, variables };
    }
  }

  /** What serves `uri` for a caller whose guards admit everything: the first of {@link candidates}. */
  resolve(uri: string): ResolvedResource | undefined {
    for (const candidate of this.candidates(uri)) return candidate;
    return undefined;
  }

  /**
   * Adds the completer of a template variable (an `@McpCompletion()` method).
   * @throws McpDefinitionError when there is no such template or variable, or it has a completer already.
   */
  addCompleter(uriTemplate: string, variable: string, completer: ItemCompleter, label: string): void {
    const template = this.templates.get(uriTemplate);
    if (!template) throw new McpDefinitionError(`${label}: there is no resource template ${uriTemplate}`);
    if (!template.template.variables.includes(variable)) {
      throw new McpDefinitionError(`${label}: resource template ${uriTemplate} has no variable ${variable}`);
    }
    if (!isReplaceable(template.completers.get(variable))) {
      throw new McpDefinitionError(`${label}: variable ${variable} of ${uriTemplate} has a completer already`);
    }
    template.completers.set(variable, completer);
  }

  /** The JSON Schema of the variables, checked against the template's: exactly its variables. */
  private variablesSchema(
    variables: McpResourceTemplateOptions['variables'],
    template: UriTemplate,
    label: string,
  ): JsonSchemaObject | undefined {
    if (variables === undefined) return undefined;
    let schema: JsonSchemaObject;
    if (typeof variables === 'function') schema = this.schemas.converter.toSchema(variables, `${label} (variables)`);
    else if (isJsonSchemaObject(variables) && variables.type === 'object') schema = variables;
    else
      throw new McpDefinitionError(
        `${label}: variables must be a DTO class or a JSON Schema object with type "object"`,
      );
    const properties = Object.keys((schema.properties ?? {}) as object);
    const missing = template.variables.filter((name) => !properties.includes(name));
    const extra = properties.filter((name) => !template.variables.includes(name));
    if (missing.length > 0 || extra.length > 0) {
      throw new McpDefinitionError(
        `${label}: the variables schema must declare exactly the template's variables (${template.variables.join(', ')})` +
          (missing.length > 0 ? `; missing: ${missing.join(', ')}` : '') +
          (extra.length > 0 ? `; not in the template: ${extra.join(', ')}` : ''),
      );
    }
    return schema;
  }

  private variablesChecker(
    variables: McpResourceTemplateOptions['variables'],
    owner: string,
    label: string,
  ): ArgumentsChecker {
    if (variables === undefined) return (raw) => Promise.resolve({ ok: true, value: raw });
    return argumentsCheckerFor(variables, this.schemas.validators, owner, label);
  }
}

/** An item's `cache` option, checked and frozen. */
function cacheOption(cache: McpCacheHintOptions | undefined, label: string): McpCacheHintOptions | undefined {
  if (cache === undefined) return undefined;
  try {
    validateCacheHint(`${label}: cache`, cache);
  } catch (error) {
    throw new McpDefinitionError((error as Error).message);
  }
  return Object.freeze({ ...cache });
}
