import type { Type } from '@nestjs/common';
import type { Icon, JsonSchemaObject, Meta, ToolAnnotations } from '../protocol/mcp.types.js';

/**
 * Options of {@link McpRoute}: how a controller route is advertised as a tool. Its arguments come
 * from the route itself (path parameters, query and body DTOs, `@nestjs/swagger` metadata), never
 * from these options. On a controller class, `@McpRoute()` takes `methods` and the defaults its
 * routes share (`annotations`, `icons`, `timeoutMs`, `_meta`); `name`, `title`, `description`,
 * `output` and `exclude` belong on a method.
 * @category Options
 */
export interface McpRouteOptions {
  /**
   * Tool name: 1 to 128 characters of `A-Za-z0-9_-.`, unique in the application (route-backed
   * tools and `@McpTool()` methods share one namespace).
   * @default the route's swagger `operationId` (`@ApiOperation()`), else the handler method's name
   *   in snake_case (`createAlert` → `create_alert`)
   */
  name?: string;
  /** Human-readable display name. */
  title?: string;
  /**
   * What the tool does, written for a model.
   * @default the route's swagger `summary` and `description` (`@ApiOperation()`), else its method
   *   and path, such as `GET /api/forecasts/:city` (say more: the model chooses tools from this text)
   */
  description?: string;
  /**
   * The structured result (the 2xx JSON body), as a class-validator DTO or a JSON Schema object:
   * advertised as `outputSchema`, and the body is checked against it.
   * @default the type swagger declares for the route's success status (`@ApiOkResponse({ type })`,
   *   `@ApiCreatedResponse()`, `@ApiResponse({ status: 2xx, type })`), else none: the body is still
   *   sent as `structuredContent` when it is a JSON object
   */
  output?: Type<object> | JsonSchemaObject;
  /**
   * On a method of a controller decorated with `@McpRoute()`: leave this route out.
   * @default false
   */
  exclude?: boolean;
  /**
   * On a controller class: the HTTP methods whose routes become tools. A route outside them
   * becomes one only with its own `@McpRoute()`; routes `@ApiExcludeEndpoint()` hides are left out.
   * @default ['GET', 'HEAD']: routes that read only
   */
  methods?: readonly ('GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'ALL')[];
  /**
   * Behavioural hints, merged over those the HTTP method implies: GET and HEAD are
   * `readOnlyHint: true`, DELETE `destructiveHint: true`, PUT `idempotentHint: true`.
   */
  annotations?: ToolAnnotations;
  /** Icons a client may show for the tool (2025-11-25). */
  icons?: readonly Icon[];
  /**
   * Milliseconds a call may run: past it the in-process request is aborted and the call answered
   * with an error result saying it timed out.
   * @default no limit
   */
  timeoutMs?: number;
  /** Extra metadata advertised with the tool. */
  _meta?: Meta;
}
