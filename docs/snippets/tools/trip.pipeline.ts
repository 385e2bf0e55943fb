import {
  Catch,
  Injectable,
  Logger,
  SetMetadata,
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
  type PipeTransform,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { McpExecutionContext, text, type CallToolResult } from 'mcp42';
import { tap, type Observable } from 'rxjs';

// #region guard
/** Marks a tool (or a route) as part of a feature that can be switched off. */
export const Feature = (name: string) => SetMetadata('feature', name);

/** The features switched on, from configuration. */
@Injectable()
export class FeatureFlags {
  readonly enabled = new Set((process.env.FEATURES ?? 'trips').split(','));
}

/** Hides the tools of features that are off: they vanish from tools/list, and calls get "Unknown tool". */
@Injectable()
export class FeatureGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly flags: FeatureFlags,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const feature = this.reflector.get<string | undefined>('feature', context.getHandler());
    return feature === undefined || this.flags.enabled.has(feature);
  }
}
// #endregion guard

// #region interceptor
/** Logs how long each tool call took; on HTTP routes it does nothing. */
@Injectable()
export class TimingInterceptor implements NestInterceptor {
  private readonly logger = new Logger('ToolTiming');

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!McpExecutionContext.isMcp(context)) return next.handle();
    const { name } = McpExecutionContext.of(context);
    const started = performance.now();
    return next.handle().pipe(tap(() => this.logger.log(`${name} took ${Math.round(performance.now() - started)} ms`)));
  }
}
// #endregion interceptor

// #region pipe
/** ' lISBON ' → 'Lisbon'. */
@Injectable()
export class CityNamePipe implements PipeTransform<string, string> {
  transform(value: string): string {
    const name = value.trim().toLowerCase();
    return name.charAt(0).toUpperCase() + name.slice(1);
  }
}
// #endregion pipe

// #region filter
/** A failure of the booking service, which knows nothing of MCP. */
export class NoFlightsError extends Error {
  constructor(readonly city: string) {
    super(`No flights to ${city}`);
  }
}

/** Turns NoFlightsError into a result the model can read; what the filter returns is the answer. */
@Catch(NoFlightsError)
export class NoFlightsFilter implements ExceptionFilter {
  catch(error: NoFlightsError, host: ArgumentsHost): CallToolResult {
    const { name } = McpExecutionContext.of(host);
    return { content: [text(`${name}: ${error.message}; try a city with an airport.`)], isError: true };
  }
}
// #endregion filter
