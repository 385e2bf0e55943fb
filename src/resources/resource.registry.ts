import { Injectable, Optional } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { ChangeBurst } from '../catalogue/change-burst.js';
import { Catalogue } from '../catalogue/catalogue.js';
import { definitionLabel } from '../catalogue/definition-checks.js';
import { completerTable, isReplaceable, type ItemCompleter } from '../catalogue/completer.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import { plainTarget } from '../execution/plain-target.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from '../interfaces/mcp-resource-options.interface.js';
import { McpMethod } from '../protocol/mcp.methods.js';
import type { JsonSchemaObject } from '../protocol/mcp.types.js';
import type { Page } from '../protocol/pagination.js';
import { McpSchemas } from '../schemas/mcp-schemas.js';
import { McpSessionRegistry } from '../session/session.registry.js';
import { argumentsCheckerFor, type ArgumentsChecker } from '../schemas/arguments-checker.js';
import { isJsonSchemaObject } from '../schemas/schema-source.js';
import type { RegisteredResource, RegisteredResourceTemplate } from './registered-resource.interface.js';
import { buildResourceDefinition, buildTemplateDefinition } from './resource-definition.factory.js';
import { strictlyEncoded, type UriTemplate, type UriVariables } from './uri-template.js';

/** The handler of a resource or template added at run time: the same contract as a decorated method. */
export type McpResourceHandler<A extends object = Record<string, string | string[]>> = (
  variables: A,
  context: McpContext,
  uri: string,
) => unknown;

/** A resource template added at run time: its options, the name required. */
export type McpRuntimeResourceTemplateOptions = McpResourceTemplateOptions & { readonly name: string };

/** A resource added at run time: its options, the name required. */
export type McpRuntimeResourceOptions = McpResourceOptions & { readonly name: string };

/** What `resources/read` of a URI resolves to. */
export type ResolvedResource =
  | { readonly kind: 'resource'; readonly resource: RegisteredResource }
  | { readonly kind: 'template'; readonly template: RegisteredResourceTemplate; readonly variables: UriVariables };

/**
 * The resources and resource templates one application serves. Decorated methods are registered
 * at bootstrap; inject it to add or remove resources while the application runs (each burst of
 * changes sends `notifications/resources/list_changed`), and to tell subscribed clients that a
 * resource changed with {@link notifyUpdated}.
 *
 * A URI is served by the resource with exactly that URI, else by the first template (in
 * registration order) it matches, among those the caller's guards admit.
 *
 * @example
 * ```ts
 * constructor(private readonly resources: McpResourceRegistry) {}
 *
 * onForecastRefreshed(city: string): void {
 *   this.resources.notifyUpdated(`weather://forecast/${encodeURIComponent(city)}`);
 * }
 * ```
 */
@Injectable()
export class McpResourceRegistry {
  /** Shared by both catalogues: clients hear of resources and templates in one `list_changed`. */
  private readonly burst = new ChangeBurst();
  private readonly resources = new Catalogue<RegisteredResource>(
    (resource) => resource.definition.uri,
    (existing, added) =>
      new McpDefinitionError(
        `Resource URI ${added.definition.uri} is served twice: by ${existing.owner} and by ${added.owner}`,
      ),
    this.burst,
  );
  private readonly templates = new Catalogue<RegisteredResourceTemplate>(
    (template) => template.definition.uriTemplate,
    (existing, added) =>
      new McpDefinitionError(
        `Resource template ${added.definition.uriTemplate} is served twice: by ${existing.owner} and by ${added.owner}`,
      ),
    this.burst,
  );
  private readonly schemas: McpSchemas;

  /** @internal */
  constructor(
    private readonly sessions: McpSessionRegistry,
    @Optional() schemas?: McpSchemas,
  ) {
    this.schemas = schemas ?? new McpSchemas();
  }

  /** Emits once per burst of changes to the served resources or templates. */
  get changes(): Observable<void> {
    return this.burst.changes;
  }

  /** Resources registered. */
  get size(): number {
    return this.resources.size;
  }

  /** Resource templates registered. */
  get templateCount(): number {
    return this.templates.size;
  }

  /**
   * Prepares a resource from its options and registers it.
   * @internal
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
      target,
    };
    this.resources.add(resource);
    return resource;
  }

  /**
   * Prepares a resource template from its options and registers it.
   * @internal
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
      target,
      checkVariables: this.variablesChecker(options.variables, owner, label),
      completers: completerTable(options.complete, template.variables, schema, label, owner),
    };
    this.templates.add(registered);
    return registered;
  }

  /**
   * Serves a resource from now on, read by `handler` (called with `{}`, the context and the URI).
   * No Nest pipeline runs for it (no guards, global ones included).
   * @throws McpDefinitionError for an invalid definition or a URI already served.
   */
  addResource(options: McpRuntimeResourceOptions, handler: McpResourceHandler<Record<string, never>>): void {
    requireFunction(handler, `addResource(${options.uri})`);
    const target = plainTarget((invocation) =>
      handler(invocation.arguments as Record<string, never>, invocation.context!, invocation.uri!),
    );
    this.define(options, options.name, `runtime resource ${options.uri}`, () => target);
  }

  /**
   * Serves a resource template from now on, read by `handler` (called with the variables, the
   * context and the URI). No Nest pipeline runs for it (no guards, global ones included).
   * @throws McpDefinitionError for an invalid definition or a URI template already served.
   */
  addResourceTemplate<A extends object>(
    options: McpRuntimeResourceTemplateOptions,
    handler: McpResourceHandler<A>,
  ): void {
    requireFunction(handler, `addResourceTemplate(${options.uriTemplate})`);
    const target = plainTarget((invocation) =>
      handler(invocation.arguments as A, invocation.context!, invocation.uri!),
    );
    this.defineTemplate(options, options.name, `runtime resource template ${options.uriTemplate}`, () => target);
  }

  /**
   * Stops serving the resource with this URI; reads already running finish.
   * @returns whether there was one.
   */
  removeResource(uri: string): boolean {
    return this.resources.remove(uri);
  }

  /**
   * Stops serving the template with this URI template.
   * @returns whether there was one.
   */
  removeResourceTemplate(uriTemplate: string): boolean {
    return this.templates.remove(uriTemplate);
  }

  /**
   * Hides a resource (or, given its URI template, a template) from lists and reads until
   * {@link enable}: it answers -32002 like an unknown one.
   * @returns whether it exists.
   */
  disable(uriOrTemplate: string): boolean {
    const resource = this.resources.disable(uriOrTemplate);
    return this.templates.disable(uriOrTemplate) || resource;
  }

  /**
   * Serves a disabled resource or template again.
   * @returns whether it exists.
   */
  enable(uriOrTemplate: string): boolean {
    const resource = this.resources.enable(uriOrTemplate);
    return this.templates.enable(uriOrTemplate) || resource;
  }

  /** Whether a resource with this URI is served (templates aside). */
  hasResource(uri: string): boolean {
    return this.resources.isEnabled(uri);
  }

  /** Whether a template with this URI template is served. */
  hasResourceTemplate(uriTemplate: string): boolean {
    return this.templates.isEnabled(uriTemplate);
  }

  /**
   * Tells every session subscribed to `uri` that the resource changed
   * (`notifications/resources/updated`, on its GET stream; while none is open it waits there,
   * bounded by `outboxLimit`). Subscriptions are to exact URIs, as the client sent them.
   * @returns how many sessions it was sent (or queued) to.
   */
  notifyUpdated(uri: string): number {
    let sent = 0;
    for (const session of this.sessions.all()) {
      if (session.isSubscribed(uri) && session.notify(McpMethod.ResourceUpdated, { uri })) sent++;
    }
    return sent;
  }

  /**
   * What may serve `uri`, in order: the resource with that URI, then every template it matches, in
   * registration order. The reader takes the first the caller's guards admit.
   * @internal
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

  /**
   * What serves `uri` for a caller whose guards admit everything: the first of {@link candidates}.
   * @internal
   */
  resolve(uri: string): ResolvedResource | undefined {
    for (const candidate of this.candidates(uri)) return candidate;
    return undefined;
  }

  /**
   * The served template with this URI template.
   * @internal
   */
  getTemplate(uriTemplate: string): RegisteredResourceTemplate | undefined {
    return this.templates.get(uriTemplate);
  }

  /**
   * Adds the completer of a template variable (an `@McpCompletion()` method).
   * @internal
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

  /**
   * One page of the served resources a caller may see.
   * @internal
   */
  page(
    cursor: string | undefined,
    pageSize: number,
    visible: (resource: RegisteredResource) => boolean | Promise<boolean>,
  ): Promise<Page<RegisteredResource>> {
    return this.resources.page(cursor, pageSize, visible);
  }

  /**
   * One page of the served templates a caller may see.
   * @internal
   */
  pageTemplates(
    cursor: string | undefined,
    pageSize: number,
    visible: (template: RegisteredResourceTemplate) => boolean | Promise<boolean>,
  ): Promise<Page<RegisteredResourceTemplate>> {
    return this.templates.page(cursor, pageSize, visible);
  }

  /** The JSON Schema of the variables, checked against the template's: exactly its variables. */
  private variablesSchema(
    variables: McpResourceTemplateOptions['variables'],
    template: UriTemplate,
    label: string,
  ): JsonSchemaObject | undefined {
    if (variables === undefined) return undefined;
    let schema: JsonSchemaObject;
    if (typeof variables === 'function') schema = this.schemas.converter.toSchema(variables);
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

function requireFunction(handler: unknown, what: string): void {
  if (typeof handler !== 'function') throw new McpDefinitionError(`${what}: handler must be a function`);
}
