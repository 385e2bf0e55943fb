import { Injectable } from '@nestjs/common';
import { McpTool } from '../src/index.js';
import { EchoArgs } from './echo.args.js';

@Injectable()
export class EchoTools {
  @McpTool({
    description: 'Returns the given text unchanged',
    input: EchoArgs,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  })
  echo(args: EchoArgs): string {
    return args.text;
  }
}
