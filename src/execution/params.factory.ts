import type { ParamsFactory } from '@nestjs/core';
import type { Invocation } from './invocation.js';
import { ParamType } from './param-type.js';

/** Gives each marked parameter of a tool method its value from the execution arguments. */
export class InvocationParamsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, data: unknown, args: unknown[]): unknown {
    const invocation = args[3] as Invocation | undefined;
    if (!invocation) return undefined;
    switch (type) {
      case ParamType.Args: {
        const values = invocation.arguments as Record<string, unknown> | undefined;
        return typeof data === 'string' && values ? values[data] : values;
      }
      case ParamType.Context:
        return invocation.context;
      case ParamType.Session:
        return invocation.session;
      case ParamType.Uri:
        return invocation.uri;
      default:
        return undefined;
    }
  }
}
