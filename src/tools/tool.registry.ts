import { Injectable } from '@nestjs/common';
import { Observable, Subject } from 'rxjs';
import { McpToolDefinitionError } from '../errors/mcp-tool-definition.error.js';
import type { ToolTarget } from '../execution/tool-target.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { duplicateToolMessage } from '../mcp.messages.js';
import { PagedList, type Page } from '../protocol/pagination.js';
import { DtoJsonSchemaConverter } from './dto-json-schema.js';
import { JsonSchemaValidatorFactory } from './json-schema.validator.js';
import { argumentsCheckerFor, outputCheckerFor } from './tool-checks.js';
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
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly disabled = new Set<string>();
  private readonly schemas = new DtoJsonSchemaConverter();
  private readonly validators = new JsonSchemaValidatorFactory();
  private readonly changed = new Subject<void>();
  private served: PagedList<RegisteredTool> | undefined;
  private changePending = false;

  /** Emits (once per burst of changes, after the burst) when the served set of tools changed. */
  get changes(): Observable<void> {
    return this.changed.asObservable();
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
    const definition = buildToolDefinition(options, defaultName, owner, this.schemas);
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
    const existing = this.tools.get(tool.definition.name);
    if (existing) {
      throw new McpToolDefinitionError(duplicateToolMessage(tool.definition.name, existing.owner, tool.owner));
    }
    this.tools.set(tool.definition.name, tool);
    this.touch();
  }

  /**
   * Adds a tool while the application runs, served from now on.
   * @throws McpToolDefinitionError for an invalid definition, or a name already taken.
   */
  addTool<A extends object>(options: McpRuntimeToolOptions, handler: McpToolHandler<A>): void {
    if (typeof handler !== 'function') {
      throw new McpToolDefinitionError(`addTool(${options.name}): handler must be a function`);
    }
    const target: ToolTarget = {
      canActivate: () => Promise.resolve(true),
      execute: async ([, , , invocation]) => handler(invocation.arguments as A, invocation.context!),
      reportsErrors: false,
    };
    this.define(options, options.name, `runtime tool ${options.name}`, () => target);
  }

  /**
   * Stops serving a tool; calls already running finish.
   * @returns whether there was such a tool.
   */
  removeTool(name: string): boolean {
    if (!this.tools.delete(name)) return false;
    if (!this.disabled.delete(name)) this.touch();
    return true;
  }

  /**
   * Hides a tool from `tools/list` and refuses its calls, until {@link enableTool}.
   * @returns whether the tool exists.
   */
  disableTool(name: string): boolean {
    if (!this.tools.has(name)) return false;
    if (!this.disabled.has(name)) {
      this.disabled.add(name);
      this.touch();
    }
    return true;
  }

  /**
   * Serves a disabled tool again.
   * @returns whether the tool exists.
   */
  enableTool(name: string): boolean {
    if (!this.tools.has(name)) return false;
    if (this.disabled.delete(name)) this.touch();
    return true;
  }

  /** Whether a tool of that name exists (enabled or not). */
  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** Whether a tool exists and is served. */
  isEnabled(name: string): boolean {
    return this.tools.has(name) && !this.disabled.has(name);
  }

  /**
   * The served tool of that name.
   * @internal
   */
  get(name: string): RegisteredTool | undefined {
    return this.disabled.has(name) ? undefined : this.tools.get(name);
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
    return this.schemas;
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
    this.served ??= new PagedList(
      [...this.tools.values()].filter((tool) => !this.disabled.has(tool.definition.name)),
      (tool) => tool.definition.name,
    );
    return this.served.pageWhere(cursor, pageSize, visible);
  }

  private touch(): void {
    this.served = undefined;
    if (this.changePending) return;
    this.changePending = true;
    // A burst of changes (a feature flag flipping ten tools) is one notification, not ten.
    queueMicrotask(() => {
      this.changePending = false;
      this.changed.next();
    });
  }
}
