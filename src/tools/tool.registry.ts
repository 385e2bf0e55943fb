import { Injectable, Optional } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { Catalogue } from '../catalogue/catalogue.js';
import { McpToolDefinitionError } from '../errors/mcp-tool-definition.error.js';
import { plainTarget } from '../execution/plain-target.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { duplicateToolMessage } from '../mcp.messages.js';
import type { Page } from '../protocol/pagination.js';
import { McpSchemas } from '../schemas/mcp-schemas.js';
import type { DtoJsonSchemaConverter } from '../schemas/dto-json-schema.js';
import type { JsonSchemaValidatorFactory } from '../schemas/json-schema.validator.js';
import { argumentsCheckerFor, outputCheckerFor } from '../schemas/arguments-checker.js';
import { buildToolDefinition } from './tool-definition.factory.js';
import type { RegisteredTool } from './registered-tool.interface.js';

/** A tool added at run time: its options (the name required) and its handler. */
export type McpRuntimeToolOptions = McpToolOptions & { readonly name: string };

/** The handler of a tool added at run time: the same contract as an `@McpTool()` method. */
export type McpToolHandler<A extends object = Record<string, unknown>> = (args: A, context: McpContext) => unknown;

/**
 * The tools one application serves, by name. `@McpTool()` methods are registered at bootstrap;
 * inject it to add, remove, enable or disable tools while the application runs. Every change of
 * the served set tells each connected session (`notifications/tools/list_changed`), once per
 * burst of changes.
 *
 * Tools added at run time are plain functions: they do not run through Nest's guards,
 * interceptors, pipes or filters, which belong to provider methods.
 *
 * @example
 * ```ts
 * constructor(private readonly tools: McpToolRegistry) {}
 *
 * enableBeta(): void {
 *   this.tools.addTool({ name: 'beta_search', description: 'Searches the beta index', input: SearchDto },
 *     (args: SearchDto) => this.search.beta(args.query));
 * }
 * ```
 */
@Injectable()
export class McpToolRegistry {
  private readonly tools = new Catalogue<RegisteredTool>(
    (tool) => tool.definition.name,
    (existing, added) =>
      new McpToolDefinitionError(duplicateToolMessage(added.definition.name, existing.owner, added.owner)),
  );
  private readonly shared: McpSchemas;

  /** @internal */
  constructor(@Optional() shared?: McpSchemas) {
    this.shared = shared ?? new McpSchemas();
  }

  /**
   * The schema machinery shared with resources, prompts and elicitation.
   * @internal
   */
  get schemas(): McpSchemas {
    return this.shared;
  }

  private get validators(): JsonSchemaValidatorFactory {
    return this.shared.validators;
  }

  /** Emits (once per burst of changes, after the burst) when the served set of tools changed. */
  get changes(): Observable<void> {
    return this.tools.changes;
  }

  /**
   * Prepares a tool from its options (definition, schemas and checks, computed once) and registers it.
   * @internal
   * @throws McpToolDefinitionError for an invalid definition or a name already taken.
   */
  define(
    options: McpToolOptions,
    defaultName: string,
    owner: string,
    target: RegisteredTool['target'],
  ): RegisteredTool {
    const definition = buildToolDefinition(options, defaultName, owner, this.shared.converter);
    const tool: RegisteredTool = {
      definition,
      owner,
      timeoutMs: options.timeoutMs,
      checkArguments: argumentsCheckerFor(options.input, this.validators, owner),
      checkOutput: outputCheckerFor(definition.outputSchema, this.validators, owner),
      target,
    };
    this.register(tool);
    return tool;
  }

  /**
   * Registers a prepared tool.
   * @internal
   * @throws McpToolDefinitionError when the name is taken.
   */
  register(tool: RegisteredTool): void {
    this.tools.add(tool);
  }

  /**
   * Adds a tool while the application runs, served from now on.
   * @throws McpToolDefinitionError for an invalid definition, or a name already taken.
   */
  addTool<A extends object>(options: McpRuntimeToolOptions, handler: McpToolHandler<A>): void {
    if (typeof handler !== 'function') {
      throw new McpToolDefinitionError(`addTool(${options.name}): handler must be a function`);
    }
    const target = plainTarget((invocation) => handler(invocation.arguments as A, invocation.context!));
    this.define(options, options.name, `runtime tool ${options.name}`, () => target);
  }

  /**
   * Stops serving a tool; calls already running finish.
   * @returns whether there was such a tool.
   */
  removeTool(name: string): boolean {
    return this.tools.remove(name);
  }

  /**
   * Hides a tool from `tools/list` and refuses its calls, until {@link enableTool}.
   * @returns whether the tool exists.
   */
  disableTool(name: string): boolean {
    return this.tools.disable(name);
  }

  /**
   * Serves a disabled tool again.
   * @returns whether the tool exists.
   */
  enableTool(name: string): boolean {
    return this.tools.enable(name);
  }

  /** Whether a tool of that name exists (enabled or not). */
  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** Whether a tool exists and is served. */
  isEnabled(name: string): boolean {
    return this.tools.isEnabled(name);
  }

  /**
   * The served tool of that name.
   * @internal
   */
  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  /** Tools registered, enabled or not. */
  get size(): number {
    return this.tools.size;
  }

  /**
   * The JSON Schema validators of this application (tool schemas, elicitation forms).
   * @internal
   */
  get schemaValidators(): JsonSchemaValidatorFactory {
    return this.validators;
  }

  /**
   * The converter for DTO classes, shared by discovery and {@link addTool}.
   * @internal
   */
  get schemaConverter(): DtoJsonSchemaConverter {
    return this.shared.converter;
  }

  /**
   * One page of the served tools a caller may see, after `cursor`. The list is prepared once per
   * change of the tool set; definitions (schemas included) were computed at registration, so a page
   * costs the visibility checks of its tools, whatever their schemas.
   * @internal
   */
  page(
    cursor: string | undefined,
    pageSize: number,
    visible: (tool: RegisteredTool) => boolean | Promise<boolean>,
  ): Promise<Page<RegisteredTool>> {
    return this.tools.page(cursor, pageSize, visible);
  }
}
