import { HttpException, Injectable, Logger } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants.js';
import { REQUEST_CONTEXT_ID } from '@nestjs/core/router/request/request-constants.js';
import { ContextIdFactory, ExternalContextCreator, ModuleRef, ModulesContainer, type ContextId } from '@nestjs/core';
import { isObservable } from 'rxjs';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import { McpInsufficientScopeException } from '../errors/mcp-insufficient-scope.exception.js';
import { MCP_CONTEXT_TYPE } from '../mcp.constants.js';
import { InvocationParamsFactory } from './params.factory.js';
import type { ExecutionArgs } from './invocation.js';
import type { PipelineTarget } from './pipeline-target.js';
import { decideScopes, type GuardVerdict } from './scope-challenge.js';

type Method = (...args: unknown[]) => unknown;

/** The part of Nest's guards context creator read here: the guards a pipeline will run. */
interface GuardsContextCreatorLike {
  create(...args: unknown[]): readonly unknown[];
}

type GlobalEnhancerWrapper =
  ReturnType<ModulesContainer['values']> extends Iterable<infer M>
    ? M extends { injectables: Map<unknown, infer W> }
      ? W
      : never
    : never;

/** How Nest names the providers behind `APP_GUARD`, `APP_INTERCEPTOR`, `APP_PIPE` and `APP_FILTER`. */
const GLOBAL_ENHANCER_TOKEN = /^APP_(GUARD|INTERCEPTOR|PIPE|FILTER) \(UUID: /;

/**
 * Puts the methods of items (tools, resources, templates, prompts, completers) behind Nest's own
 * pipeline, with Nest's `ExternalContextCreator` (as GraphQL resolvers and microservice handlers
 * are): guards, interceptors, pipes and exception filters declared on the method, its class or
 * globally apply, in an execution context of type `'mcp'`.
 *
 * Guards run on their own, before argument validation and the rest of the pipeline, so that a
 * listing can ask them whether a caller may see an item without calling it, and a denied request
 * is indistinguishable from one for an item that does not exist.
 */
@Injectable()
export class PipelineFactory {
  private readonly logger = new Logger('McpPipelines');
  private readonly params = new InvocationParamsFactory();
  private readonly contexts: ExternalContextCreator;

  /** Tokens of the request-scoped global enhancers (`APP_GUARD` with `Scope.REQUEST`...), found once. */
  private scopedGlobalEnhancers: string[] | undefined;
  /** Per HTTP request, the stand-in that durable trees are resolved with (see {@link forScoped}). */
  private readonly durableKeys = new WeakMap<object, object>();

  constructor(
    contexts: ExternalContextCreator,
    private readonly modules: ModulesContainer,
    private readonly moduleRef: ModuleRef,
  ) {
    this.contexts = withEmptyStepsSkipped(withControllerHosts(contexts, modules));
  }

  /**
   * The pipeline of a method of a static provider. Built once, at bootstrap, unless the application
   * has request-scoped global enhancers: Nest gives those to controllers per request, and so does
   * this, per HTTP request, without making the provider itself request-scoped.
   */
  forStatic(
    instance: object,
    methodName: string,
    paramsMetadataKey: string,
    inquirerId: string,
  ): (request: unknown) => PipelineTarget | Promise<PipelineTarget> {
    const shared = this.forInstance(instance, methodName, paramsMetadataKey, undefined, inquirerId);
    const tokens = this.requestScopedGlobalEnhancers();
    if (tokens.length === 0) return () => shared;
    const perRequest = new WeakMap<object, Promise<PipelineTarget>>();
    return (request) => {
      const key = request as object;
      let target = perRequest.get(key);
      if (!target) {
        const contextId = this.contextIdOf(key, false);
        target = Promise.all(tokens.map((token) => this.moduleRef.resolve(token, contextId, { strict: false }))).then(
          () => this.forInstance(instance, methodName, paramsMetadataKey, contextId, inquirerId),
        );
        perRequest.set(key, target);
      }
      return target;
    };
  }

  /** Builds the request-scoped global enhancers in `contextId` (a no-op where Nest's router did already). */
  private async loadRequestScopedGlobals(contextId: ContextId): Promise<void> {
    await Promise.all(
      this.requestScopedGlobalEnhancers().map((token) => this.moduleRef.resolve(token, contextId, { strict: false })),
    );
  }

  private requestScopedGlobalEnhancers(): string[] {
    this.scopedGlobalEnhancers ??= this.globalEnhancers()
      .filter(({ wrapper }) => !wrapper.isTransient && !wrapper.isDependencyTreeStatic())
      .map(({ token }) => token);
    return this.scopedGlobalEnhancers;
  }

  /**
   * Refuses transient global enhancers (`APP_GUARD` with `Scope.TRANSIENT`...) when the application
   * serves tools: Nest builds them per controller, and a tool provider is not one, so they would run
   * as objects whose constructor never ran. Failing at bootstrap beats a guard that half works.
   * @throws McpDefinitionError naming them.
   */
  assertNoTransientGlobalEnhancers(): void {
    const transient = this.globalEnhancers().filter(({ wrapper }) => wrapper.isTransient);
    if (transient.length === 0) return;
    const names = transient.map(({ wrapper }) => `${wrapper.name} (${wrapper.token.toString().split(' ')[0]})`);
    throw new McpDefinitionError(
      `Transient global enhancers cannot be applied to MCP tools: ${names.join(', ')}; ` +
        'make them request-scoped (Scope.REQUEST) or default-scoped',
    );
  }

  /**
   * Whether guards apply to a method by declaration: `@UseGuards()` on it or its class, or a global
   * guard (`APP_GUARD`). Read from metadata, so it needs no instance (for bootstrap checks).
   */
  declaresGuards(classRef: object, method: unknown): boolean {
    const declared = (target: unknown): boolean =>
      ((Reflect.getMetadata(GUARDS_METADATA, target as object) as unknown[] | undefined)?.length ?? 0) > 0;
    return (
      declared(classRef) ||
      (typeof method === 'function' && declared(method)) ||
      this.globalEnhancers().some(({ token }) => token.startsWith('APP_GUARD'))
    );
  }

  private globalEnhancers(): { token: string; wrapper: GlobalEnhancerWrapper }[] {
    return [...this.modules.values()].flatMap((moduleRef) =>
      [...moduleRef.injectables.entries()]
        .filter(([token]) => typeof token === 'string' && GLOBAL_ENHANCER_TOKEN.test(token))
        .map(([token, wrapper]) => ({ token: token as string, wrapper })),
    );
  }

  /** The pipeline of a method of a static provider: built once, at bootstrap. */
  forInstance(
    instance: object,
    methodName: string,
    paramsMetadataKey: string,
    contextId?: ContextId,
    inquirerId?: string,
  ): PipelineTarget {
    const method = (Object.getPrototypeOf(instance) as Record<string, Method>)[methodName]!;
    // Built on first call: listing needs the guards only.
    let execute: ((...args: unknown[]) => Promise<unknown>) | undefined;
    const createExecute = (): ((...args: unknown[]) => Promise<unknown>) =>
      this.contexts.create(
        instance,
        method,
        methodName,
        paramsMetadataKey,
        this.params,
        contextId,
        inquirerId,
        { guards: false, interceptors: true, filters: true },
        MCP_CONTEXT_TYPE,
      );
    let guards = 0;
    const guard = this.countingGuards((count) => (guards = count)).create(
      instance,
      guardProbe(method),
      methodName,
      undefined,
      undefined,
      contextId,
      inquirerId,
      { guards: true, interceptors: false, filters: false },
      MCP_CONTEXT_TYPE,
    );
    return {
      guarded: guards > 0,
      canActivate: async (args: ExecutionArgs) => {
        const ask = async (asked: ExecutionArgs): Promise<GuardVerdict> => {
          try {
            return (await guard(...asked)) === true;
          } catch (error) {
            // A guard that throws denies, as it does for HTTP routes. An HttpException is a refusal; anything
            // else is a broken guard (or one written for HTTP only), which would hide items without a word.
            if (error instanceof HttpException) this.logger.debug(`A guard of ${methodName} refused: ${error.message}`);
            else this.logger.error(`A guard of ${methodName} failed; its item is denied`, errorText(error));
            return error instanceof McpInsufficientScopeException ? error : false;
          }
        };
        return decideScopes(await ask(args), args, ask);
      },
      execute: (args: ExecutionArgs) => (execute ??= createExecute())(...args),
      reportsErrors: true,
    };
  }

  /**
   * The context creator, telling `seen` how many guards (global, class, method) the pipeline it
   * creates runs: a method with none admits every caller, and is not asked at all. Nest keeps the
   * guards of a pipeline to itself; its guards context creator is read here, and only here (a
   * spec of this file breaks if Nest changes it).
   */
  private countingGuards(seen: (count: number) => void): ExternalContextCreator {
    const guards = (this.contexts as unknown as { guardsContextCreator: GuardsContextCreatorLike })
      .guardsContextCreator;
    return Object.create(this.contexts, {
      handlerMetadataStorage: { value: new HandlerMetadata() },
      guardsContextCreator: {
        value: {
          create: (...args: unknown[]) => {
            const created = guards.create(...args);
            seen(created.length);
            return created;
          },
        },
      },
    }) as ExternalContextCreator;
  }

  /**
   * The pipeline of a method of a request-scoped, durable or transient provider: its instance is
   * resolved per HTTP request, in the request's DI context (with `REQUEST` registered), so it
   * injects what a controller of that request would.
   */
  forScoped(
    token: unknown,
    methodName: string,
    paramsMetadataKey: string,
    inquirerId: string,
    durable: boolean,
  ): (request: unknown) => Promise<PipelineTarget> {
    // One instance and one pipeline per HTTP request, however many tools of the class it lists or calls.
    const perRequest = new WeakMap<object, Promise<PipelineTarget>>();
    return (request) => {
      // A durable tree gets the strategy's payload as REQUEST, a request-scoped one the request: in one
      // HTTP request (a batch, a listing) both kinds may meet, so each kind gets its own DI context.
      const key = durable ? this.durableKeyOf(request as object) : (request as object);
      let target = perRequest.get(key);
      if (!target) {
        const instanceContext = this.contextIdOf(key, durable);
        // The pipeline's enhancers live in the HTTP request's own context (where Nest's router built the
        // request-scoped global ones), whatever context the durable instance came from.
        const pipelineContext = durable ? this.contextIdOf(request as object, false) : instanceContext;
        target = Promise.all([
          this.moduleRef.resolve<unknown, object>(token as never, instanceContext, { strict: false }),
          this.loadRequestScopedGlobals(pipelineContext),
        ]).then(([instance]) => this.forInstance(instance, methodName, paramsMetadataKey, pipelineContext, inquirerId));
        perRequest.set(key, target);
      }
      return target;
    };
  }

  /** A stand-in for the request that reads through to it, with no DI context pinned yet. */
  private durableKeyOf(request: object): object {
    let key = this.durableKeys.get(request);
    if (!key) {
      key = Object.create(request, {
        [REQUEST_CONTEXT_ID]: { value: undefined, writable: true, configurable: true },
      }) as object;
      this.durableKeys.set(request, key);
    }
    return key;
  }

  /**
   * The DI context of an HTTP request, pinned on the request as Nest's router does, so that every
   * request-scoped provider of the request (tools, guards, `MCP_SESSION`) shares it.
   */
  private contextIdOf(request: object, durable: boolean): ContextId {
    const contextId = ContextIdFactory.getByRequest(request);
    if (!(request as Record<symbol, unknown>)[REQUEST_CONTEXT_ID]) {
      Object.defineProperty(request, REQUEST_CONTEXT_ID, { value: contextId, enumerable: false, writable: false });
      this.moduleRef.registerRequestByContextId(
        durable ? contextId.payload : Object.assign(request, contextId.payload),
        contextId,
      );
    }
    return contextId;
  }
}

/**
 * A stand-in for the method while only its guards run: it carries the method's metadata (so
 * guards reading `context.getHandler()` with the `Reflector` see `@McpScopes()`, roles and the
 * like), and does nothing when they let it through.
 */
function guardProbe(method: Method): Method {
  const probe: Method = () => true;
  for (const key of Reflect.getMetadataKeys(method) as unknown[]) {
    Reflect.defineMetadata(key, Reflect.getMetadata(key, method), probe);
  }
  Object.defineProperty(probe, 'name', { value: method.name });
  return probe;
}

/**
 * The external context creator, able to find the module of a controller too. Nest's looks for the
 * host of a handler among providers only (GraphQL resolvers and the like are providers): for a tool
 * on a controller it would find no module, and guards, interceptors, pipes and filters referenced by
 * class (`@UseGuards(RolesGuard)`, `@McpScopes()`) would resolve to nothing and be skipped, silently.
 * This adds the controllers of each module to the search. It also keeps its handler metadata to
 * itself (see {@link HandlerMetadata}).
 */
function withControllerHosts(base: ExternalContextCreator, modules: ModulesContainer): ExternalContextCreator {
  return Object.create(base, {
    handlerMetadataStorage: { value: new HandlerMetadata() },
    getContextModuleKey: {
      value(
        this: ExternalContextCreator,
        classRef: Parameters<ExternalContextCreator['getContextModuleKey']>[0],
      ): string {
        const key = base.getContextModuleKey.call(this, classRef);
        if (key || !classRef) return key;
        for (const [moduleKey, moduleRef] of modules.entries()) {
          if (moduleRef.controllers.has(classRef)) return moduleKey;
        }
        return '';
      },
    },
  }) as ExternalContextCreator;
}

/** A parameter of a handler as Nest's context creator prepares it (its `createPipesFn` argument). */
interface PreparedParam {
  readonly index: number;
  readonly extractValue: (...params: unknown[]) => unknown;
  readonly pipes: readonly unknown[];
}

/** The part of Nest's context creator whose steps are skipped here when they have nothing to run. */
interface PipelineSteps {
  interceptorsConsumer: { intercept(interceptors: readonly unknown[], ...rest: unknown[]): Promise<unknown> };
  createPipesFn(
    pipes: readonly unknown[],
    params: readonly PreparedParam[],
  ): ((args: unknown[], ...params: unknown[]) => Promise<void> | void) | null;
  transformToResult(result: unknown): Promise<unknown>;
}

/**
 * The context creator, with the steps of a handler's pipeline that have nothing to run answered
 * without promises of their own: every call of every item went through about a dozen (a tool call
 * made some 70 promises where a bare route makes 14; each costs, more so with async context
 * tracking). What runs is what Nest runs; only the waiting on nothing goes:
 * - no interceptors (global, class, method): Nest's consumer returns the handler's promise from an
 *   async function; here it is returned as it is;
 * - no pipes (global, class, method, parameter): each parameter's value is what its decorator
 *   extracts, awaited only when it is a promise (Nest awaits every one); values are extracted in the
 *   same order, before any is awaited, as Nest does;
 * - a result that is no observable is handed back as it is (Nest wraps it in an async function).
 * (`interceptorsConsumer`, `createPipesFn` and `transformToResult` are Nest's own names; the pipeline
 * factory's spec breaks if Nest changes them.)
 */
function withEmptyStepsSkipped(base: ExternalContextCreator): ExternalContextCreator {
  const steps = base as unknown as PipelineSteps;
  const consumer = steps.interceptorsConsumer as PipelineSteps['interceptorsConsumer'] | undefined;
  // Another Nest whose steps are not shaped as read here keeps its own steps, all of them.
  if (
    typeof consumer?.intercept !== 'function' ||
    consumer.intercept.length !== 6 ||
    typeof steps.createPipesFn !== 'function' ||
    steps.createPipesFn.length !== 2 ||
    typeof steps.transformToResult !== 'function'
  ) {
    return base;
  }
  return Object.create(base, {
    interceptorsConsumer: {
      value: {
        // Nest's arguments: interceptors, args, instance, callback, next, type.
        intercept: (interceptors: readonly unknown[] | undefined, ...rest: unknown[]): Promise<unknown> =>
          interceptors === undefined || interceptors.length === 0
            ? (rest[3] as () => Promise<unknown>)()
            : consumer.intercept(interceptors, ...rest),
      },
    },
    createPipesFn: {
      value(this: PipelineSteps, pipes: readonly unknown[], params: readonly PreparedParam[]) {
        if (
          params.length === 0 ||
          pipes.length > 0 ||
          params.some((param) => !Array.isArray(param.pipes) || param.pipes.length > 0)
        ) {
          return steps.createPipesFn.call(this, pipes, params);
        }
        return (args: unknown[], ...values: unknown[]): Promise<void> | undefined => {
          let pending: Promise<unknown>[] | undefined;
          for (const { index, extractValue } of params) {
            let value: unknown;
            try {
              value = extractValue(...values);
            } catch (error) {
              // As in Nest, where each parameter is its own async function: the others are still extracted.
              (pending ??= []).push(Promise.reject(error as Error));
              continue;
            }
            if (isThenable(value)) {
              (pending ??= []).push(
                Promise.resolve(value).then((settled) => {
                  args[index] = settled;
                }),
              );
            } else {
              args[index] = value;
            }
          }
          return pending && Promise.all(pending).then(() => undefined);
        };
      },
    },
    transformToResult: {
      value(this: PipelineSteps, result: unknown): unknown {
        return isObservable(result) ? steps.transformToResult.call(this, result) : result;
      },
    },
  }) as ExternalContextCreator;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * Where a context creator of ours caches handler metadata, apart from Nest's own cache. Nest 11 keys
 * its cache by class name and method name only: the guard-only pipeline of a method, built first
 * and without parameters, would then hand its metadata to the method's full pipeline, whose handler
 * would get no arguments. Nest 12 keys it by class, context type and metadata key; a cache per
 * creator, by instance, is right for both. (`handlerMetadataStorage` is Nest's own field; the
 * pipeline factory's spec breaks if Nest renames it.)
 */
class HandlerMetadata {
  private readonly byInstance = new WeakMap<object, Map<string, unknown>>();

  get(instance: object, key: string): unknown {
    return this.byInstance.get(instance)?.get(key);
  }

  set(instance: object, key: string, value: unknown): void {
    let cached = this.byInstance.get(instance);
    if (!cached) this.byInstance.set(instance, (cached = new Map<string, unknown>()));
    cached.set(key, value);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
